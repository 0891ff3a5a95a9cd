# pickle as checkpoint code uses it: dumps/loads round trips of nested dicts and
# lists, a dataclass, a custom class with __getstate__/__setstate__, every
# protocol from 0 to HIGHEST_PROTOCOL, dump/load to a file, and shared refs.
import io
import os
import pickle
import tempfile
from dataclasses import dataclass


@dataclass
class Hparams:
    lr: float
    layers: list


class Model:
    def __init__(self, weights):
        self.weights = weights
        self.cache = {"big": list(range(5))}

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["cache"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.cache = {}

    def __eq__(self, other):
        return isinstance(other, Model) and self.weights == other.weights


ckpt = {
    "step": 1000,
    "model": Model([[0.5, -1.25], [3.0, 1e-8]]),
    "hparams": Hparams(3e-4, [64, 64]),
    "history": [(0, 2.3), (500, 1.1)],
    "extra": {"seed": None, "flags": {1, 2, 3}, "name": "run-é", "raw": b"\x00\xff"},
}
print(pickle.HIGHEST_PROTOCOL >= 5, pickle.DEFAULT_PROTOCOL >= 4)
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    data = pickle.dumps(ckpt, protocol=proto)
    back = pickle.loads(data)
    print(proto, back == ckpt, back["model"].cache, back["hparams"], data[:2] if proto >= 2 else data[:1])
print(pickle.dumps([1, "a"], protocol=0))
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "ckpt.pkl")
    with open(path, "wb") as f:
        pickle.dump(ckpt, f)
        pickle.dump("second object", f)
    with open(path, "rb") as f:
        first, second = pickle.load(f), pickle.load(f)
    print(first["step"], first["history"], second)
shared = [1, 2]
obj = pickle.loads(pickle.dumps({"a": shared, "b": shared}))
print(obj["a"] is obj["b"], obj)
buf = io.BytesIO()
pickle.Pickler(buf, protocol=2).dump((1.5, True))
buf.seek(0)
print(pickle.Unpickler(buf).load())
try:
    pickle.dumps(lambda x: x)
except (pickle.PicklingError, AttributeError) as e:
    print(type(e).__name__)
try:
    pickle.loads(b"not a pickle")
except pickle.UnpicklingError as e:
    print(type(e).__name__, e)
