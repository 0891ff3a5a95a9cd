# typing in function signatures of utility code: Optional, List, Dict, Tuple,
# Union, Callable, Any, the runtime objects these produce (get_origin/get_args),
# and get_type_hints on functions and classes.
from typing import Any, Callable, Dict, List, Optional, Tuple, Union, get_args, get_origin, get_type_hints


def load_batch(paths: List[str], size: Optional[int] = None) -> Dict[str, Tuple[int, ...]]:
    n = size if size is not None else len(paths)
    return {p: (n, i) for i, p in enumerate(paths[:n])}


def apply(fn: Callable[[float], float], xs: List[float]) -> List[float]:
    return [fn(x) for x in xs]


def describe(v: Union[int, str, None]) -> str:
    return f"{type(v).__name__}:{v}"


class Trainer:
    steps: int
    history: List[float]
    callbacks: Dict[str, Callable[..., Any]]

    def __init__(self) -> None:
        self.steps = 0


print(load_batch(["a", "b", "c"], 2))
print(apply(lambda x: x * 2, [1.0, 2.5]))
print(describe(3), describe("s"), describe(None))
hints = get_type_hints(load_batch)
for k, v in hints.items():
    print(k, v)
print(get_type_hints(Trainer))
print(get_origin(List[int]), get_args(Dict[str, int]), get_args(Optional[int]))
print(get_origin(Union[int, str]) is Union, Optional[int] == Union[int, None])
print(List[int], Tuple[int, ...], Callable[[int], str], Optional[str])
print(list[int], dict[str, list[int]], int | None, (int | None) == Optional[int])
print(load_batch.__annotations__["return"])
print(isinstance([1], list), Any)
