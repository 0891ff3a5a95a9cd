# json failure modes and hooks: JSONDecodeError's message, line and column,
# TypeError for unserializable objects, a default= function and a JSONEncoder
# subclass for custom types, object_hook and allow_nan=False.
import json
from dataclasses import asdict, dataclass


for bad in ['{"a": 1,}', "{'a': 1}", '[1, 2', "", '{"a" 1}', "tru"]:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), "->", type(e).__name__, e, (e.lineno, e.colno, e.pos))
try:
    json.loads('{\n  "a": 1\n  "b": 2\n}')
except ValueError as e:
    print(type(e).__name__, e.msg, e.lineno, e.colno)


@dataclass
class Opt:
    name: str
    lr: float


try:
    json.dumps({"opt": Opt("sgd", 0.1)})
except TypeError as e:
    print(type(e).__name__, e)
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print(type(e).__name__, e)


def default(o):
    if isinstance(o, Opt):
        return {"__opt__": asdict(o)}
    if isinstance(o, (set, frozenset)):
        return sorted(o)
    raise TypeError(f"cannot encode {type(o).__name__}")


s = json.dumps({"opt": Opt("sgd", 0.1), "ids": {3, 1, 2}}, default=default)
print(s)


def hook(d):
    if "__opt__" in d:
        return Opt(**d["__opt__"])
    return d


print(json.loads(s, object_hook=hook))


class Encoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, complex):
            return [o.real, o.imag]
        return super().default(o)


print(json.dumps([1 + 2j, 3], cls=Encoder))
try:
    json.dumps(object(), cls=Encoder)
except TypeError as e:
    print(type(e).__name__, str(e).startswith("Object of type object"))
try:
    json.dumps([float("nan")], allow_nan=False)
except ValueError as e:
    print(type(e).__name__, e)
print(json.loads("1.5", parse_float=lambda t: "float:" + t), json.loads('{"b": 1, "a": 2}', object_pairs_hook=list))
