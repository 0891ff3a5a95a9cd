# Structural pattern matching as config and command dispatch uses it: literal
# and capture patterns, sequences with *rest, mappings with **rest, class
# patterns with keywords and __match_args__, guards, or-patterns, as-bindings,
# and the wildcard.
from dataclasses import dataclass


@dataclass
class Linear:
    in_f: int
    out_f: int


@dataclass
class Conv:
    ch: int
    k: int = 3


def describe(layer):
    match layer:
        case Linear(in_f=i, out_f=o) if i == o:
            return f"square linear {i}"
        case Linear(i, o):
            return f"linear {i}->{o}"
        case Conv(ch=c, k=1):
            return f"pointwise conv {c}"
        case Conv(c, k):
            return f"conv {c} k{k}"
        case _:
            return f"unknown {layer!r}"


for l in [Linear(4, 4), Linear(4, 8), Conv(16, 1), Conv(32), "relu"]:
    print(describe(l))


def command(argv):
    match argv:
        case []:
            return "no command"
        case ["train"]:
            return "train with defaults"
        case ["train", ("--epochs" | "-e"), n] if n.isdigit():
            return f"train for {int(n)} epochs"
        case ["eval", *splits] if splits:
            return f"eval on {splits}"
        case ["export", ("onnx" | "tflite") as fmt, *_]:
            return f"export {fmt}"
        case [cmd, *rest]:
            return f"unknown {cmd} with {len(rest)} args"


for argv in [[], ["train"], ["train", "-e", "5"], ["train", "--epochs", "x"], ["eval", "val", "test"], ["export", "onnx", "x"], ["serve"]]:
    print(argv, "->", command(argv))


def optimizer(cfg):
    match cfg:
        case {"name": "sgd", "lr": float(lr), **rest}:
            return f"SGD lr={lr} extra={rest}"
        case {"name": "adam", "betas": [b1, b2]}:
            return f"Adam betas=({b1}, {b2})"
        case {"name": str(name)}:
            return f"other optimizer {name}"
        case {"lr": _}:
            return "missing name"


for cfg in [{"name": "sgd", "lr": 0.1, "momentum": 0.9}, {"name": "sgd", "lr": 1}, {"name": "adam", "betas": [0.9, 0.99]},
            {"name": "adam", "betas": (0.9, 0.99, 1)}, {"lr": 3}, {}]:
    print(cfg, "->", optimizer(cfg))
print(Linear.__match_args__)
