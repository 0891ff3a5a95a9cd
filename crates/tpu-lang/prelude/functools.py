# functools, as CPython's: the parts programs use around torch code.
# `update_wrapper` is Rust.

WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__", "__dict__")
WRAPPER_UPDATES = ("__dict__",)


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorator(wrapper):
        return update_wrapper(wrapper, wrapped)
    return decorator


class partial:
    def __init__(self, func, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **keywords):
        return self.func(*self.args, *args, **{**self.keywords, **keywords})


_initial_missing = object()


def reduce(function, iterable, initial=_initial_missing):
    items = list(iterable)
    if initial is _initial_missing:
        if not items:
            raise TypeError("reduce() of empty iterable with no initial value")
        value = items[0]
        items = items[1:]
    else:
        value = initial
    for element in items:
        value = function(value, element)
    return value


def cache(user_function):
    # Results by positional and keyword arguments, never evicted.
    results = {}

    def wrapper(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        if key not in results:
            results[key] = user_function(*args, **kwargs)
        return results[key]
    return update_wrapper(wrapper, user_function)


def lru_cache(maxsize=128, typed=False):
    # Without eviction: a bounded cache returns the same values, only sooner.
    if callable(maxsize):
        return cache(maxsize)
    return cache
