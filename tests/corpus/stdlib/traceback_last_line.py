# traceback for error reports without file paths: the last line of
# format_exc() for a caught exception, format_exception_only, print_exception
# with limit into a StringIO (only the non-path lines are printed), and
# TracebackException; also chained causes in formatted output.
import io
import traceback


def inner(x):
    return {"a": 1}[x]


def outer(x):
    try:
        return inner(x)
    except KeyError as e:
        raise ValueError(f"bad key {x!r}") from e


try:
    inner("b")
except KeyError:
    text = traceback.format_exc()
    print(text.splitlines()[0])
    print(text.strip().splitlines()[-1])
try:
    outer("z")
except ValueError as e:
    lines = traceback.format_exc().strip().splitlines()
    print(lines[-1])
    print([l for l in lines if not l.startswith(" ")])
    print(traceback.format_exception_only(type(e), e))
    print(traceback.format_exception_only(e))
    buf = io.StringIO()
    traceback.print_exception(e, limit=1, file=buf)
    out = buf.getvalue().splitlines()
    print(len([l for l in out if l.startswith('  File "')]) <= 2, out[-1])
    te = traceback.TracebackException.from_exception(e)
    print(te.exc_type.__name__, str(te), "".join(te.format_exception_only()).strip())
    print(te.__cause__.exc_type.__name__ if te.__cause__ else None)
    frames = traceback.extract_tb(e.__traceback__)
    print([f.name for f in frames], frames[-1].line)
try:
    raise RuntimeError("multi\nline message")
except RuntimeError:
    print(traceback.format_exc().splitlines()[-2:])
try:
    [][1]
except IndexError as e:
    print("".join(traceback.format_exception(type(e), e, None)).strip())
print(traceback.format_exc() if False else "no active exception:", repr(traceback.format_exc()))
