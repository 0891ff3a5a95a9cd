import sys, traceback
def f(a, b):
    return a / b
try:
    f(1, 0)
except ZeroDivisionError as e:
    tb = e.__traceback__
    while tb.tb_next: tb = tb.tb_next
    print("tb_lineno", tb.tb_lineno, "tb_lasti", tb.tb_lasti)
    co = tb.tb_frame.f_code
    pos = list(co.co_positions())
    print("co_positions at lasti", pos[tb.tb_lasti // 2])
    fs = traceback.extract_tb(e.__traceback__)[-1]
    print("FrameSummary", fs.lineno, fs.end_lineno, fs.colno, fs.end_colno, repr(fs.line))
    print("".join(traceback.format_exception(e)), end="")
try:
    compile("x = 1\ny = (x +* 2)\n", "<s>", "exec")
except SyntaxError as e:
    print("SyntaxError attrs", e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset, repr(e.text))
try:
    compile("def g():\n  return 1\n    x = 2\n", "<s>", "exec")
except SyntaxError as e:
    print("IndentationError attrs", type(e).__name__, e.msg, e.lineno, e.offset, repr(e.text))
