# functools.total_ordering deriving comparisons from __eq__ and __lt__,
# singledispatch choosing an implementation by argument type, and
# partialmethod binding a method argument.
import functools


@functools.total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __repr__(self):
        return "Version(" + ".".join(map(str, self.parts)) + ")"


vs = [Version("2.15.0"), Version("2.9.1"), Version("2.15")]
print(sorted(vs), Version("1.2") >= Version("1.2"), Version("1.10") > Version("1.9"), Version("1.0") <= Version("0.9"))


@functools.singledispatch
def to_str(x):
    return f"object {x!r}"


@to_str.register
def _(x: int):
    return f"int {x}"


@to_str.register(list)
def _(x):
    return "list [" + ", ".join(to_str(i) for i in x) + "]"


print(to_str(3), to_str(True), to_str("s"), to_str([1, "a"]), to_str.dispatch(float).__name__)


class Cell:
    def __init__(self):
        self.alive = False

    def set_state(self, state):
        self.alive = state

    set_alive = functools.partialmethod(set_state, True)


c = Cell()
c.set_alive()
print(c.alive)
