# dir(), help() and __doc__ on the program's own names, as CPython prints them.
import math


class Point:
    """A point in the plane.

    Coordinates are floats.
    """

    dims = 2

    def __init__(self, x, y=0.0):
        self.x = x
        self.y = y

    def norm(self, p: int = 2) -> float:
        """The p-norm of the point."""
        return (abs(self.x) ** p + abs(self.y) ** p) ** (1 / p)

    def _private(self):
        pass


class Point3(Point):
    def norm3(self):
        return 0.0


def add(a, b, *rest, scale=1, **options):
    """Add numbers.

        Indented detail stays indented.
    """
    return (a + b + sum(rest)) * scale


def undocumented(x):
    return x


p = Point(3.0, 4.0)
print([n for n in dir() if not n.startswith("__")])
print("__name__" in dir(), __name__)
print(dir(Point))
print(dir(p))
print([n for n in dir(Point3) if not n.startswith("__")])
print("sqrt" in dir(math), "pi" in dir(math), dir(math) == sorted(dir(math)))
print([n for n in dir("") if n.startswith("sp")], dir([])[-3:])
print(add.__doc__)
print(undocumented.__doc__, Point3.__doc__, Point.norm.__doc__, p.norm.__doc__)
print(Point.__doc__)
help(add)
help(undocumented)
help(p.norm)
help(Point.norm)
help(lambda x, y=[1, "a"]: x)
help(Point)
if __name__ == "__main__":
    print("main")
