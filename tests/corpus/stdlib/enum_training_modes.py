# Enums for modes and options: Enum with explicit values and auto(), iteration
# and len, lookup by value and by name, members in dicts, IntEnum comparisons,
# StrEnum, Flag combinations, unique, and the errors for unknown values.
import enum
from enum import Enum, Flag, IntEnum, StrEnum, auto


class Split(Enum):
    TRAIN = "train"
    VAL = "val"
    TEST = "test"


class Precision(IntEnum):
    FP32 = 32
    FP16 = 16
    BF16 = 17
    INT8 = 8


class Stage(Enum):
    WARMUP = auto()
    STABLE = auto()
    DECAY = auto()

    def next(self):
        members = list(type(self))
        return members[(members.index(self) + 1) % len(members)]


class Device(StrEnum):
    CPU = auto()
    CUDA = auto()


class Feature(Flag):
    NONE = 0
    AMP = auto()
    COMPILE = auto()
    CKPT = auto()


print(Split.TRAIN, repr(Split.TRAIN), Split.TRAIN.name, Split.TRAIN.value)
print(list(Split), len(Split), [m.value for m in Split], Split("val"), Split["TEST"])
print(Split.TRAIN is Split("train"), Split.TRAIN == "train", isinstance(Split.VAL, Split))
counts = {Split.TRAIN: 100, Split.VAL: 10}
print(counts[Split("train")], Split.TEST in counts, sorted(Split.__members__))
print(Precision.FP16 < Precision.FP32, Precision.INT8 + 1, int(Precision.BF16), Precision(16), sorted(Precision))
print([s.value for s in Stage], Stage.WARMUP.next(), Stage.DECAY.next(), repr(Stage.STABLE))
print(Device.CPU, Device.CUDA == "cuda", Device("cpu").upper(), f"{Device.CUDA}:0")
f = Feature.AMP | Feature.CKPT
print(f, Feature.AMP in f, Feature.COMPILE in f, bool(Feature.NONE), f & Feature.AMP, list(f))
print(Feature(3), ~Feature.AMP)
for bad in [lambda: Split("training"), lambda: Split["train"], lambda: Precision(4)]:
    try:
        bad()
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
try:
    @enum.unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print(type(e).__name__, e)
try:
    Split.TRAIN = "x"
except AttributeError as e:
    print(type(e).__name__, e)
Color = Enum("Color", ["RED", "GREEN"])
print(list(Color), Color.GREEN.value, Split.TRAIN.__class__.__name__)
match Stage.DECAY:
    case Stage.WARMUP:
        print("warming")
    case Stage.DECAY:
        print("decaying")
