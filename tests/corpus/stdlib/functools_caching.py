# functools caching and composition: lru_cache with cache_info and cache_clear,
# cache, cached_property computed once, partial (and its func/args/keywords),
# and reduce over a list of dicts and a product.
import functools
import operator


@functools.lru_cache(maxsize=32)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), fib.cache_info())
fib.cache_clear()
print(fib.cache_info())
print([fib(i) for i in range(10)], fib.cache_info().hits)


@functools.cache
def tokenize(word):
    print("  tokenizing", word)
    return tuple(word)


print(tokenize("cat"), tokenize("cat"), tokenize.cache_info().currsize)


class Dataset:
    def __init__(self, n):
        self.n = n

    @functools.cached_property
    def stats(self):
        print("  computing stats")
        return {"mean": (self.n - 1) / 2, "n": self.n}


ds = Dataset(11)
print(ds.stats, ds.stats["mean"], "stats" in vars(ds))
del ds.stats
print(ds.stats["n"])


def scale(x, factor=1.0, offset=0.0):
    return x * factor + offset


double = functools.partial(scale, factor=2.0)
shift = functools.partial(scale, 1.0, offset=5)
print(double(3), double(3, offset=1), shift(), double.func.__name__, double.args, double.keywords)
print(functools.reduce(operator.add, [1, 2, 3, 4]), functools.reduce(operator.mul, range(1, 6), 1))
configs = [{"lr": 0.1}, {"epochs": 3}, {"lr": 0.01}]
print(functools.reduce(lambda a, b: {**a, **b}, configs, {}))
try:
    functools.reduce(operator.add, [])
except TypeError as e:
    print(type(e).__name__, e)
