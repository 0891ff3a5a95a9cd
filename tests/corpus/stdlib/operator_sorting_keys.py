# Sorting and selecting records with operator.itemgetter, attrgetter and
# methodcaller, lambda keys, multi-key sorts, reverse, and the stability of
# sorted() with equal keys; plus operator functions used as callbacks.
import operator
from operator import attrgetter, itemgetter, methodcaller

runs = [
    {"name": "b", "acc": 0.91, "epochs": 10},
    {"name": "a", "acc": 0.93, "epochs": 20},
    {"name": "c", "acc": 0.91, "epochs": 5},
    {"name": "d", "acc": 0.88, "epochs": 20},
]
print([r["name"] for r in sorted(runs, key=itemgetter("acc"), reverse=True)])
print([r["name"] for r in sorted(runs, key=itemgetter("epochs", "name"))])
print([r["name"] for r in sorted(runs, key=lambda r: (-r["acc"], r["epochs"]))])
print(itemgetter(0, 2)("abcd"), itemgetter(slice(1, 3))([10, 20, 30, 40]))
pairs = [(1, "b"), (0, "a"), (1, "a"), (0, "b")]
print(sorted(pairs, key=itemgetter(0)))
print(sorted(sorted(pairs, key=itemgetter(1)), key=itemgetter(0)))


class Run:
    def __init__(self, name, cfg):
        self.name, self.cfg = name, cfg

    def __repr__(self):
        return f"Run({self.name})"


class Cfg:
    def __init__(self, lr):
        self.lr = lr


objs = [Run("x", Cfg(0.1)), Run("y", Cfg(0.01)), Run("z", Cfg(0.05))]
print(sorted(objs, key=attrgetter("cfg.lr")), attrgetter("name", "cfg.lr")(objs[0]))
print(list(map(methodcaller("upper"), ["ab", "cd"])), methodcaller("split", ",", 1)("a,b,c"))
print(list(map(methodcaller("startswith", "val"), ["val_loss", "train_loss"])))
print(max(runs, key=itemgetter("acc"))["name"], min(objs, key=attrgetter("cfg.lr")))
words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len))
print(sorted(words, key=lambda w: (len(w), w.lower()), reverse=True))
print(operator.add(2, 3), operator.mul("ab", 2), operator.neg(4), operator.truediv(7, 2), operator.floordiv(7, 2))
print(operator.getitem({"k": 1}, "k"), operator.contains([1, 2], 2), operator.not_(0), operator.index(5))
d = {"a": 1}
operator.setitem(d, "b", 2)
print(d, operator.iadd([1], [2]), operator.is_(None, None), operator.lt(1, 2))
