# More typing used in library-style utility code: TypeAlias, Annotated with
# get_type_hints(include_extras=True), overload, ParamSpec-typed decorators,
# Self, Literal checks with get_args, NewType, Iterable/Sequence/Mapping from
# typing, and TYPE_CHECKING guarded imports.
from typing import (TYPE_CHECKING, Annotated, Callable, Iterable, Literal, Mapping, NewType, ParamSpec, Self,
                    Sequence, TypeAlias, TypeVar, get_args, get_type_hints, overload)

if TYPE_CHECKING:
    import does_not_exist_at_runtime  # noqa: F401

P = ParamSpec("P")
R = TypeVar("R")
Shape: TypeAlias = tuple[int, ...]
UserId = NewType("UserId", int)
Reduction = Literal["mean", "sum", "none"]


def timed(fn: Callable[P, R]) -> Callable[P, R]:
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        print(f"  calling {fn.__name__}")
        return fn(*args, **kwargs)
    return inner


@timed
def numel(shape: Shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@overload
def first(x: str) -> str: ...
@overload
def first(x: Sequence[int]) -> int: ...
def first(x):
    return x[0]


def loss(values: Iterable[float], reduction: Reduction = "mean") -> float:
    if reduction not in get_args(Reduction):
        raise ValueError(f"reduction must be one of {get_args(Reduction)}, got {reduction!r}")
    vals = list(values)
    return sum(vals) / len(vals) if reduction == "mean" else sum(vals)


class Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, part: str) -> Self:
        self.parts.append(part)
        return self


def lr_of(cfg: Annotated[Mapping[str, float], "read-only"], key: Annotated[str, "config key"] = "lr") -> float:
    return cfg[key]


print(numel((2, 3, 4)), first("abc"), first([7, 8]), loss([1.0, 2.0, 3.0]), loss([1.0, 2.0], "sum"))
try:
    loss([1.0], "max")
except ValueError as e:
    print(type(e).__name__, e)
print(Builder().add("conv").add("relu").parts, UserId(5), UserId.__name__, type(UserId(5)).__name__)
print(get_type_hints(lr_of))
print(get_type_hints(lr_of, include_extras=True)["key"])
print(Shape, P, P.args, Reduction, get_args(Reduction), TYPE_CHECKING)
print(get_type_hints(numel), numel.__name__)
