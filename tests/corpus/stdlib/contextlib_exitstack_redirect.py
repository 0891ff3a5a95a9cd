# ExitStack managing a variable number of open files and callbacks (closed in
# reverse order), pop_all, redirect_stdout into a StringIO to capture printed
# output, redirect_stderr, and chdir.
import contextlib
import io
import os
import sys
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    names = [os.path.join(tmp, f"shard_{i}.txt") for i in range(3)]
    with contextlib.ExitStack() as stack:
        files = [stack.enter_context(open(n, "w")) for n in names]
        for i, f in enumerate(files):
            f.write(f"shard {i}\n")
        stack.callback(print, "callback 1 (runs last)")
        stack.callback(lambda: print("callback 2 (runs first)"))
        print("open:", [f.closed for f in files])
    print("closed:", [f.closed for f in files])
    print([open(n).read().strip() for n in names])

    with contextlib.ExitStack() as stack:
        f = stack.enter_context(open(names[0]))
        keep = stack.pop_all()
    print("after pop_all closed?", f.closed)
    keep.close()
    print("after keep.close()", f.closed)

    with contextlib.chdir(tmp):
        print(sorted(os.listdir(".")))
    print("cwd restored:", os.getcwd() != tmp)

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print("captured line 1")
    print("captured", 2, sep="-")
    sys.stdout.write("raw write\n")
print("captured text:", repr(buf.getvalue()))
err = io.StringIO()
with contextlib.redirect_stderr(err):
    print("to stderr", file=sys.stderr)
print("stderr text:", repr(err.getvalue()))


def noisy_eval():
    print("accuracy 0.91")
    return 0.91


with contextlib.redirect_stdout(io.StringIO()) as out:
    acc = noisy_eval()
print(acc, out.getvalue().split())
try:
    with contextlib.ExitStack() as stack:
        stack.callback(print, "cleanup despite error")
        raise ValueError("inside stack")
except ValueError as e:
    print(type(e).__name__, e)
