# contextlib as training utilities use it: @contextmanager timers and state
# switches (with the exception visible inside), suppress, nullcontext as an
# optional context, closing, and a class-based manager whose __exit__ swallows.
import contextlib


@contextlib.contextmanager
def eval_mode(model):
    prev = model["training"]
    model["training"] = False
    print("  enter eval, was training:", prev)
    try:
        yield model
    finally:
        model["training"] = prev
        print("  restored training:", prev)


@contextlib.contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    except ValueError as e:
        print(f"  {name} handled ValueError: {e}")
    print(f"</{name}>")


model = {"training": True}
with eval_mode(model) as m:
    print("  inside:", m["training"])
print(model)
try:
    with eval_mode(model):
        raise RuntimeError("boom in eval")
except RuntimeError as e:
    print(type(e).__name__, e, model["training"])
with tag("a") as t:
    print("  got", t)
with tag("b"):
    raise ValueError("swallowed")
print("after b")
with contextlib.suppress(FileNotFoundError, KeyError):
    {}["missing"]
    print("not reached")
print("suppressed")
for use_amp in (True, False):
    ctx = tag("amp") if use_amp else contextlib.nullcontext("plain")
    with ctx as value:
        print("  value:", value)


class Resource:
    def __init__(self, name):
        self.name = name

    def close(self):
        print("  closed", self.name)


with contextlib.closing(Resource("r1")) as r:
    print("  using", r.name)


class Swallow:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        print("  __exit__ got", exc_type.__name__ if exc_type else None, exc)
        return exc_type is KeyError


with Swallow():
    raise KeyError("k")
try:
    with Swallow():
        raise IndexError("not swallowed")
except IndexError as e:
    print(type(e).__name__, e)
