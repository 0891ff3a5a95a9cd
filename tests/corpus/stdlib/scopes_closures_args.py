# Scoping and calling conventions: global and nonlocal, closures capturing loop
# variables (late binding and the default-argument fix), counters via
# closures, *args/**kwargs forwarding, keyword-only and positional-only
# parameters, unpacking in calls, and the walrus operator.
STEP = 0


def bump():
    global STEP
    STEP += 1
    return STEP


bump(), bump()
print("global STEP", STEP)


def make_counter():
    count = 0

    def inc(by=1):
        nonlocal count
        count += by
        return count
    return inc


c1, c2 = make_counter(), make_counter()
print(c1(), c1(), c1(5), c2(), c1.__closure__[0].cell_contents)
late = [lambda: i for i in range(3)]
early = [lambda i=i: i for i in range(3)]
print([f() for f in late], [f() for f in early])


def make_scheduler(base_lr):
    def at(step):
        return base_lr * 0.5 ** (step // 10)
    return at


sched = make_scheduler(0.1)
print(sched(0), sched(25), sched.__code__.co_freevars)


def log(msg, *args, sep=" ", **kwargs):
    extras = "".join(f" {k}={v}" for k, v in sorted(kwargs.items()))
    return msg + sep + sep.join(map(str, args)) + extras


def wrapper(*args, **kwargs):
    return log(*args, **kwargs)


print(log("a"), "|", log("a", 1, 2), "|", wrapper("b", 3, sep=",", lr=0.1, bs=2))
print(log(*["x", "y", "z"], **{"k": 1}))


def train(model, /, data, *, epochs=1, lr):
    return f"{model} {data} {epochs} {lr}"


print(train("m", "d", lr=0.1), train("m", data="d", epochs=3, lr=1))
for bad in [lambda: train("m", "d", 3, lr=1), lambda: train(model="m", data="d", lr=1), lambda: train("m", "d")]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
first, *middle, last = range(6)
(a, b), c = (1, 2), 3
print(first, middle, last, a, b, c, [*range(3), *"ab"], {**{"x": 1}, "y": 2})
data = [3, 8, 1, 9, 4]
if (n := len(data)) > 3:
    print("long list", n)
print([y for x in data if (y := x * 2) > 6], y)
while (chunk := data[:2]):
    print("chunk", chunk)
    data = data[2:]
