import sys, time, io, contextlib
src = open(sys.argv[1]).read()
code = compile(src, sys.argv[1], "exec")
buf = io.StringIO()
t = time.perf_counter()
with contextlib.redirect_stdout(buf):
    exec(code, {"__name__": "__main__"})
print("%.1f" % ((time.perf_counter() - t) * 1e3))
