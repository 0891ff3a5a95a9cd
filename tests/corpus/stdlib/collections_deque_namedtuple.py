# deque(maxlen) as a smoothing window, deque rotate and appendleft,
# namedtuple records, OrderedDict as an LRU cache with move_to_end, and
# ChainMap layering command-line, file and default configs.
from collections import ChainMap, OrderedDict, deque, namedtuple

window = deque(maxlen=3)
for loss in [4.0, 3.0, 2.0, 1.0, 0.5]:
    window.append(loss)
    print(f"loss {loss} smoothed {sum(window) / len(window):.3f} window {list(window)}")
print(window, window.maxlen)
d = deque([1, 2, 3, 4])
d.rotate(1)
d.appendleft(0)
print(d, d.popleft(), d.pop(), d)
d.extendleft([9, 8])
print(d, d.count(9), d.index(1))

Batch = namedtuple("Batch", ["x", "y", "mask"], defaults=[None])
b = Batch([1, 2], [0, 1])
print(b, b.x, b.mask, b._fields, b._asdict())
x, y, m = b
print(x, y, m, b._replace(mask=[1, 1]), Batch._make([[3], [4], [5]]))


class LRU:
    def __init__(self, cap):
        self.cap, self.data = cap, OrderedDict()

    def get(self, k):
        if k not in self.data:
            return None
        self.data.move_to_end(k)
        return self.data[k]

    def put(self, k, v):
        self.data[k] = v
        self.data.move_to_end(k)
        if len(self.data) > self.cap:
            print("evict", self.data.popitem(last=False))


c = LRU(2)
c.put("a", 1)
c.put("b", 2)
c.get("a")
c.put("c", 3)
print(list(c.data.items()))
od = OrderedDict.fromkeys("abc", 0)
od.move_to_end("a", last=False)
print(od, OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), dict(a=1, b=2) == dict(b=2, a=1))

defaults = {"lr": 0.1, "epochs": 10, "device": "cpu"}
from_file = {"epochs": 20}
cli = {"lr": 0.01}
cfg = ChainMap(cli, from_file, defaults)
print(cfg["lr"], cfg["epochs"], cfg["device"], len(cfg), dict(cfg))
cfg["new"] = 1
print(cli, cfg.maps[0] is cli, cfg.parents, cfg.new_child({"lr": 1.0})["lr"])
