# Classes the way model code writes them: inheritance, super(), dunders, closures.
class Shape:
    sides = 0

    def __init__(self, name):
        self.name = name

    def describe(self):
        return f"{self.name} with {self.sides} sides"

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"


class Square(Shape):
    sides = 4

    def __init__(self, side):
        super().__init__("square")
        self.side = side

    def area(self):
        return self.side ** 2

    def __eq__(self, other):
        return isinstance(other, Square) and other.side == self.side

    def __len__(self):
        return self.sides

    def __call__(self, scale):
        return Square(self.side * scale)


class Registry:
    def __init__(self):
        self.items = {}

    def __setitem__(self, key, value):
        self.items[key] = value

    def __getitem__(self, key):
        return self.items[key]

    def __iter__(self):
        return iter(sorted(self.items))


s = Square(3)
print(s, s.describe(), s.area(), len(s), s(2).area())
print(isinstance(s, Shape), issubclass(Square, Shape), Square.sides, Shape.sides)
print(s == Square(3), s == Square(4), [sh.describe() for sh in [Shape("dot"), s]])
r = Registry()
r["b"] = 2
r["a"] = 1
print(list(r), r["b"], [k for k in r])


def make_counter(start):
    count = start

    def step(by=1):
        nonlocal count
        count += by
        return count

    return step


counter = make_counter(10)
counter()
counter(by=5)
print(counter(), make_counter(0)())
adders = [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in adders], sorted(["mxu", "vpu", "hbm"], key=len), max("ab", "abc", key=len))
print(getattr(s, "side"), hasattr(s, "radius"), vars(Square(1)), type(s).__name__)
