# Frozen and ordered dataclasses: hashable frozen records used as dict keys and
# in sets, FrozenInstanceError on assignment, order=True sorting, kw_only and
# slots dataclasses, InitVar, and dataclasses with inheritance.
import dataclasses
from dataclasses import dataclass, field, InitVar


@dataclass(frozen=True)
class Shape:
    channels: int
    height: int
    width: int

    @property
    def numel(self):
        return self.channels * self.height * self.width


@dataclass(order=True)
class Checkpoint:
    sort_key: float = field(init=False, repr=False)
    val_loss: float
    step: int
    path: str = field(compare=False)

    def __post_init__(self):
        self.sort_key = self.val_loss


@dataclass(kw_only=True)
class Opt:
    lr: float
    momentum: float = 0.9


@dataclass(slots=True)
class Point:
    x: int
    y: int


@dataclass
class Base:
    name: str
    scale: InitVar[float] = 1.0
    size: int = 0

    def __post_init__(self, scale):
        self.size = int(10 * scale)


@dataclass
class Derived(Base):
    extra: str = "e"


s = Shape(3, 32, 32)
print(s, s.numel, hash(s) == hash(Shape(3, 32, 32)))
cache = {s: "cifar", Shape(1, 28, 28): "mnist"}
print(cache[Shape(1, 28, 28)], len({s, Shape(3, 32, 32)}))
try:
    s.channels = 1
except dataclasses.FrozenInstanceError as e:
    print(type(e).__name__, e)
ckpts = [Checkpoint(0.52, 300, "c300.pt"), Checkpoint(0.41, 900, "c900.pt"), Checkpoint(0.41, 600, "c600.pt")]
print(sorted(ckpts))
print(min(ckpts).path, max(ckpts).path, ckpts[0] > ckpts[1])
print(Opt(lr=0.1))
try:
    Opt(0.1)
except TypeError as e:
    print(type(e).__name__, e)
p = Point(1, 2)
print(p, hasattr(p, "__dict__"), Point.__slots__)
try:
    p.z = 3
except AttributeError as e:
    print(type(e).__name__)
print(Base("b", 2.5), Derived("d", 0.3, extra="x"))
print([f.name for f in dataclasses.fields(Derived)])
