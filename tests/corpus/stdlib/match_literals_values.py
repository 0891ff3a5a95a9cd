# match on plain values: None/True singletons, literal or-patterns, class
# patterns for builtins (int(), float(), str()) with as-bindings, nested list
# and tuple patterns (a list matches a tuple pattern too), dotted value
# patterns, guards, and case order (True matches before 1).
import enum


class Phase(enum.Enum):
    TRAIN = 1
    EVAL = 2


for value in [0, 1, 2.5, "s", None, True, (1, 2), [1, [2, 3]]]:
    match value:
        case None:
            r = "None"
        case True:
            r = "True"
        case 0 | 1:
            r = "zero or one"
        case int() | float() as num:
            r = f"number {num}"
        case [a, [b, *_]]:
            r = f"nested {a} {b}"
        case (x, y):
            r = f"pair {x},{y}"
        case _:
            r = "other"
    print(repr(value), "->", r)
for phase in [Phase.TRAIN, Phase.EVAL, 1]:
    match phase:
        case Phase.TRAIN:
            print(phase, "-> training step")
        case Phase.EVAL:
            print(phase, "-> evaluation")
        case _:
            print(phase, "-> not a phase")
for status in [200, 404, 500, 302]:
    match status:
        case 200 | 201:
            msg = "ok"
        case 404:
            msg = "not found"
        case code if code >= 500:
            msg = f"server error {code}"
        case other:
            msg = f"unhandled {other}"
    print(status, msg)
match {"epoch": 3, "loss": 0.5}:
    case {"epoch": int(e)} if e > 2:
        print("late epoch", e)
match "x":
    case str() as s if len(s) > 5:
        print("long")
    case str(s):
        print("short string", s)
