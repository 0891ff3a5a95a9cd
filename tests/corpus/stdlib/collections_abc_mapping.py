# collections.abc as config containers use it: a MutableMapping subclass gets
# get/update/pop/keys/items/setdefault from five methods, isinstance checks
# against Sequence/Mapping/Iterable/Sized/Callable, and a Sequence subclass.
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence, Sized


class Config(MutableMapping):
    def __init__(self):
        self._d = {}

    def __getitem__(self, k):
        return self._d[k]

    def __setitem__(self, k, v):
        self._d[k] = v

    def __delitem__(self, k):
        del self._d[k]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)


c = Config()
c["lr"] = 0.1
c.update(epochs=3)
print(dict(c), c.get("missing", "default"), "lr" in c, list(c.keys()), c.pop("epochs"), len(c))
print(isinstance([], Sequence), isinstance({}, Mapping), isinstance(c, Mapping), isinstance(3, Iterable))
print(isinstance("s", Sized), isinstance(len, Callable), isinstance((i for i in []), Iterable), isinstance({}, Sequence))
print(c.setdefault("seed", 0), sorted(c.items()), c == {"lr": 0.1, "seed": 0})


class Range3(Sequence):
    def __getitem__(self, i):
        if not 0 <= i < 3:
            raise IndexError(i)
        return i * 10

    def __len__(self):
        return 3


r = Range3()
print(list(r), 20 in r, r.index(10), r.count(0), list(reversed(r)), isinstance(iter(r), Iterator))
try:
    MutableMapping()
except TypeError as e:
    print(type(e).__name__, e)
