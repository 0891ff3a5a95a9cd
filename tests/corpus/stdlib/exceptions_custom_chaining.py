# Custom exception hierarchies with their own __init__ (args, attributes, str),
# raise ... from ... (__cause__), implicit chaining (__context__),
# suppressing context with from None, add_note, ExceptionGroup with except*,
# and catching by base class.
class TrainingError(Exception):
    pass


class ShapeError(TrainingError):
    def __init__(self, expected, got):
        super().__init__(f"expected shape {expected}, got {got}")
        self.expected, self.got = expected, got


class DivergedError(TrainingError):
    def __init__(self, step, loss):
        self.step, self.loss = step, loss

    def __str__(self):
        return f"loss {self.loss} at step {self.step}"


try:
    raise ShapeError((3, 4), (4, 3))
except TrainingError as e:
    print(type(e).__name__, e, e.args, e.expected, repr(e))
try:
    raise DivergedError(100, float("nan"))
except TrainingError as e:
    print(type(e).__name__, e, e.args, isinstance(e, Exception), type(e).__mro__[1].__name__)


def load(path):
    try:
        return {"a.pt": 1}[path]
    except KeyError as e:
        raise FileNotFoundError(f"no checkpoint {path}") from e


try:
    load("b.pt")
except FileNotFoundError as e:
    print(type(e).__name__, e, "| cause:", type(e.__cause__).__name__, e.__cause__, "| suppress:", e.__suppress_context__)
try:
    try:
        1 / 0
    except ZeroDivisionError:
        int("x")
except ValueError as e:
    print(type(e).__name__, e, "| context:", type(e.__context__).__name__, e.__context__, "| cause:", e.__cause__)
try:
    try:
        [].pop()
    except IndexError:
        raise RuntimeError("clean") from None
except RuntimeError as e:
    print(type(e).__name__, e, e.__cause__, type(e.__context__).__name__, e.__suppress_context__)
try:
    e = ValueError("bad lr")
    e.add_note("hint: use --lr 1e-3")
    raise e
except ValueError as e:
    print(e, e.__notes__)
try:
    raise ExceptionGroup("rank failures", [ValueError("r0"), KeyError("r1"), ValueError("r2")])
except* ValueError as eg:
    print("values:", [str(x) for x in eg.exceptions])
except* KeyError as eg:
    print("keys:", [repr(x) for x in eg.exceptions])
for exc in [KeyError("k"), IndexError(3), ZeroDivisionError("division by zero"), Exception("a", 2), StopIteration(5)]:
    print(type(exc).__name__, str(exc), exc.args)
try:
    raise TrainingError
except TrainingError as e:
    print(repr(e), e.args, str(e) == "")
print(issubclass(KeyError, LookupError), issubclass(ShapeError, TrainingError), BaseException in SystemExit.__mro__)
