# inspect in callback and hook plumbing: calling hooks with only the keyword
# arguments they accept, telling functions, methods, generators, coroutines and
# classes apart, Signature.replace, getattr_static, unwrap through wraps, and
# listing a class's public methods with getmembers.
import functools
import inspect


def on_step(step, loss):
    return f"on_step {step} {loss}"


def on_epoch(epoch, **kwargs):
    return f"on_epoch {epoch} {sorted(kwargs)}"


def on_any(*args):
    return f"on_any {args}"


def call_hook(fn, **available):
    params = inspect.signature(fn).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return fn(**available)
    if any(p.kind is p.VAR_POSITIONAL for p in params.values()):
        return fn(*available.values())
    return fn(**{k: v for k, v in available.items() if k in params})


for hook in (on_step, on_epoch, on_any):
    print(call_hook(hook, step=3, loss=0.5, epoch=1))


def gen():
    yield 1


async def coro():
    return 1


class Callback:
    order = 0

    def on_train_begin(self):
        pass

    def on_train_end(self, logs=None):
        pass

    @property
    def name(self):
        return type(self).__name__


for obj in (on_step, gen, coro, Callback, Callback().on_train_end, len, lambda: 0, 3):
    kinds = [n for n in ("isfunction", "ismethod", "isgeneratorfunction", "iscoroutinefunction", "isclass", "isbuiltin", "isroutine")
             if getattr(inspect, n)(obj)]
    print(getattr(obj, "__name__", repr(obj)), kinds)
public = [n for n, v in inspect.getmembers(Callback, inspect.isfunction) if not n.startswith("_")]
print(public, [n for n, _ in inspect.getmembers(Callback) if n in ("order", "name")])
print(type(inspect.getattr_static(Callback(), "name")).__name__, Callback().name)
sig = inspect.signature(on_step)
new = sig.replace(parameters=[p.replace(default=0) for p in sig.parameters.values()], return_annotation=str)
print(sig, new, list(new.parameters))


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        return fn(*a, **k)
    return wrapper


wrapped = deco(deco(on_step))
print(inspect.signature(wrapped), inspect.unwrap(wrapped) is on_step, inspect.getfullargspec(on_epoch).varkw)
print(inspect.isabstract(Callback), inspect.getmro(bool)[-1].__name__, inspect.getattr_static(Callback, "order"))
coro().close()
