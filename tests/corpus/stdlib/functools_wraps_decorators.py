# Decorators with functools.wraps: a call-logging wrapper that keeps __name__,
# __doc__ and __wrapped__, and a retry decorator taking arguments.
import functools


def log_calls(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print(f"-> {fn.__name__}{args} {kwargs}")
        out = fn(*args, **kwargs)
        print(f"<- {fn.__name__} = {out!r}")
        return out
    return wrapper


def retry(times):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a):
            for attempt in range(1, times + 1):
                try:
                    return fn(*a)
                except RuntimeError as e:
                    print(f"attempt {attempt} failed: {e}")
            return None
        return wrapper
    return deco


@log_calls
def add(a, b=0):
    """Add two numbers."""
    return a + b


add(1, b=2)
print(add.__name__, add.__doc__, add.__wrapped__(5, 5))
calls = iter([RuntimeError("flaky"), RuntimeError("again"), "ok"])


@retry(3)
def fetch():
    v = next(calls)
    if isinstance(v, Exception):
        raise v
    return v


print(fetch(), fetch.__name__)
