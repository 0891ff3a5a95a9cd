# warnings as libraries emit them: warn with categories inside
# catch_warnings(record=True) and simplefilter("always"), the recorded
# category, message and stacklevel line, filterwarnings to ignore or raise, and
# a deprecation decorator.
import functools
import warnings


def deprecated(new_name):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*a, **k):
            warnings.warn(f"{fn.__name__} is deprecated, use {new_name}", DeprecationWarning, stacklevel=2)
            return fn(*a, **k)
        return wrapper
    return deco


@deprecated("load_state")
def load(path):
    return f"loaded {path}"


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(load("a.pt"))
    warnings.warn("lr is very high")
    warnings.warn("num_workers > cpu count", ResourceWarning)
    warnings.warn(FutureWarning("default will change"))
for w in caught:
    print(w.category.__name__, str(w.message), w.filename == __file__, type(w.lineno).__name__)
print(len(caught), issubclass(DeprecationWarning, Warning), issubclass(UserWarning, Warning))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("default")
    for _ in range(3):
        warnings.warn("only once per location", UserWarning)
print("default filter kept", len(caught))

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="noisy.*")
    warnings.warn("noisy message")
    warnings.warn("real message")
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    warnings.warn("runtime", RuntimeWarning)
print([str(w.message) for w in caught])

with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        warnings.warn("now an error", UserWarning)
    except UserWarning as e:
        print(type(e).__name__, e)
    try:
        load("b.pt")
    except DeprecationWarning as e:
        print(type(e).__name__, e)


class TrainingWarning(UserWarning):
    pass


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("grad norm exploded", TrainingWarning)
print(caught[0].category.__name__, caught[0].category.__mro__[1].__name__, caught[0].message.args)
print(warnings.formatwarning("msg", UserWarning, "train.py", 12).strip())
