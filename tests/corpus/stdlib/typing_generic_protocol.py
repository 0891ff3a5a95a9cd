# Generic containers with TypeVar, a runtime_checkable Protocol, typing.NamedTuple
# with defaults and methods, TypedDict (a plain dict at run time), Literal,
# Final and cast, as a dataset/registry module would write them.
from typing import Final, Generic, Iterator, Literal, NamedTuple, Protocol, TypedDict, TypeVar, cast, runtime_checkable

T = TypeVar("T")
K = TypeVar("K", str, int)


class Buffer(Generic[T]):
    def __init__(self, capacity: int) -> None:
        self.items: list[T] = []
        self.capacity = capacity

    def push(self, item: T) -> None:
        self.items = (self.items + [item])[-self.capacity:]

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)


@runtime_checkable
class SupportsStep(Protocol):
    def step(self) -> None: ...


class Scheduler:
    def __init__(self):
        self.n = 0

    def step(self) -> None:
        self.n += 1


class Sample(NamedTuple):
    image: str
    label: int
    weight: float = 1.0

    def describe(self) -> str:
        return f"{self.image}->{self.label}"


class Metrics(TypedDict, total=False):
    loss: float
    acc: float


MAX_EPOCHS: Final = 100
Mode = Literal["train", "eval"]

b: Buffer[int] = Buffer(3)
for i in range(5):
    b.push(i)
print(list(b), Buffer[int], Buffer.__parameters__, T, K.__constraints__)
s = Scheduler()
print(isinstance(s, SupportsStep), isinstance(3, SupportsStep))
s.step()
print(s.n)
x = Sample("a.png", 3)
print(x, x.describe(), x._asdict(), Sample._fields, Sample._field_defaults)
print(x._replace(label=4), tuple(x), x[1], isinstance(x, tuple))
m: Metrics = {"loss": 0.25}
m["acc"] = 0.9
print(m, type(m).__name__, Metrics.__total__, sorted(Metrics.__optional_keys__))
print(cast(int, "not checked"), MAX_EPOCHS, Mode, Mode.__args__)
try:
    SupportsStep()
except TypeError as e:
    print(type(e).__name__, e)
