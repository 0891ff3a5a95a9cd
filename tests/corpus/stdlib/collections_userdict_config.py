# Config containers built on collections: an attribute-access dict subclass
# (AttrDict, as many training repos define), a UserDict recording reads, a
# UserList of layers, nested update of defaults, and Counter/OrderedDict
# equality rules.
from collections import Counter, OrderedDict, UserDict, UserList


class AttrDict(dict):
    def __getattr__(self, name):
        try:
            value = self[name]
        except KeyError:
            raise AttributeError(name) from None
        return AttrDict(value) if isinstance(value, dict) else value

    def __setattr__(self, name, value):
        self[name] = value


cfg = AttrDict({"model": {"dim": 64, "heads": 4}, "lr": 0.1})
cfg.epochs = 3
print(cfg.lr, cfg.model.dim, cfg["epochs"], sorted(cfg), isinstance(cfg, dict))
try:
    cfg.missing
except AttributeError as e:
    print(type(e).__name__, e)


class TrackedConfig(UserDict):
    def __init__(self, *a, **k):
        self.reads = Counter()
        super().__init__(*a, **k)

    def __getitem__(self, key):
        self.reads[key] += 1
        return super().__getitem__(key)


tc = TrackedConfig(lr=0.1, wd=0.0, unused=1)
tc["lr"], tc["lr"], tc.get("wd"), tc.get("nothing", "dflt")
print(dict(tc.reads), sorted(set(tc) - set(tc.reads)), tc.data, len(tc), "lr" in tc)


class Layers(UserList):
    def params(self):
        return sum(i * o for i, o in self.data)


net = Layers([(4, 8), (8, 2)])
net.append((2, 1))
print(net, net.params(), net[1:], type(net[1:]).__name__, len(net))


def deep_update(base, override):
    out = dict(base)
    for k, v in override.items():
        out[k] = deep_update(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


defaults = {"model": {"dim": 32, "heads": 2, "act": "gelu"}, "optim": {"lr": 1e-3}, "seed": 0}
print(deep_update(defaults, {"model": {"dim": 128}, "optim": {"lr": 3e-4, "wd": 0.1}, "seed": 5}))
print(defaults["model"]["dim"])
print(Counter(a=1) == Counter(a=1, b=0), OrderedDict(a=1, b=2) == {"b": 2, "a": 1}, OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1))
print(list(reversed(OrderedDict(x=1, y=2))), {**cfg.model, "extra": True}, dict.fromkeys(["a", "b"], 0))
