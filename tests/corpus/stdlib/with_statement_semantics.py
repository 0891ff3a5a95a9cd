# with-statement semantics: __enter__'s return value bound by `as`, __exit__
# always called with the exception triple (or Nones), a true return value
# suppressing the exception, several managers in one with (entered in order,
# exited in reverse), parenthesized multi-line with, and a reusable manager.
class Timer:
    def __init__(self, name, swallow=False):
        self.name, self.swallow = name, swallow

    def __enter__(self):
        print(f"  enter {self.name}")
        return self.name.upper()

    def __exit__(self, exc_type, exc, tb):
        print(f"  exit {self.name}: {exc_type.__name__ if exc_type else None} {exc!r} tb={tb is not None}")
        return self.swallow


with Timer("a") as value:
    print("  body got", value)
with Timer("b", swallow=True):
    raise ValueError("suppressed")
print("continues after suppressed error")
try:
    with Timer("c"):
        raise KeyError("propagates")
except KeyError as e:
    print("caught", repr(e))
with Timer("outer") as o, Timer("inner") as i:
    print("  both", o, i)
with (
    Timer("p1") as x,
    Timer("p2", swallow=True) as y,
):
    print("  parenthesized", x, y)
    raise RuntimeError("swallowed by p2")


def early():
    with Timer("ret"):
        return "returned from inside with"


print(early())
for n in range(2):
    with Timer(f"loop{n}"):
        if n == 0:
            continue
        print("  loop body", n)


class Reentrant:
    def __init__(self):
        self.depth = 0

    def __enter__(self):
        self.depth += 1
        return self

    def __exit__(self, *exc):
        self.depth -= 1
        return False


r = Reentrant()
with r:
    with r:
        print("  depth", r.depth)
print("depth after", r.depth)
try:
    with 42:
        pass
except TypeError as e:
    print(type(e).__name__, e)
