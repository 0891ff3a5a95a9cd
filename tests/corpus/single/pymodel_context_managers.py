# Context managers around torch code: a step timer, one that suppresses and logs errors, nesting, and contextlib.
import contextlib
import torch

device = "tpu"
torch.manual_seed(5)


class Section:
    depth = 0

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("  " * Section.depth + f"> {self.name}")
        Section.depth += 1
        return self

    def __exit__(self, exc_type, exc, tb):
        Section.depth -= 1
        status = "ok" if exc_type is None else f"failed with {exc_type.__name__}: {exc}"
        print("  " * Section.depth + f"< {self.name} {status}")
        return False


class Catch:
    def __init__(self, *kinds):
        self.kinds = kinds
        self.caught = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, self.kinds):
            self.caught = exc
            return True
        return None


w = torch.randn(3, 2, device=device)
with Section("forward"), torch.no_grad():
    with Section("matmul") as s:
        out = torch.ones(4, 3, device=device) @ w
    print(s.name, out.shape, torch.is_grad_enabled())
print(torch.is_grad_enabled())
with Catch(RuntimeError, ValueError) as c:
    with Section("bad shapes"):
        torch.ones(2, 5, device=device) @ w
    print("not reached")
print(type(c.caught).__name__, "caught")
try:
    with Catch(ValueError):
        {}["missing"]
except KeyError as e:
    print("KeyError passed through:", e)
with contextlib.suppress(ZeroDivisionError):
    print("ratio", 1 / 0)
with contextlib.nullcontext(w) as same:
    print(same is w)
ctx = torch.no_grad() if True else contextlib.nullcontext()
with ctx:
    print(torch.is_grad_enabled(), (w * 2).requires_grad)
