# Generator protocol details: send() into a running-average coroutine,
# yield from delegating and returning a value, generator return values in
# StopIteration, throw() handled inside, and iterator classes with __iter__
# and __next__.
def running_mean():
    total, n, mean = 0.0, 0, None
    while True:
        x = yield mean
        if x is None:
            break
        total += x
        n += 1
        mean = total / n
    return n


avg = running_mean()
print(next(avg))
for v in [10, 20, 60]:
    print("mean after", v, "=", avg.send(v))
try:
    avg.send(None)
except StopIteration as e:
    print("returned", e.value)


def sub_task(name, n):
    for i in range(n):
        yield f"{name}{i}"
    return n * 10


def main_task():
    a = yield from sub_task("a", 2)
    b = yield from sub_task("b", 3)
    yield f"results {a} {b}"
    return a + b


g = main_task()
print(list(g))


def resilient():
    while True:
        try:
            yield "ok"
        except ValueError as e:
            print("  caught inside:", e)
            yield "recovered"


r = resilient()
print(next(r), r.throw(ValueError("bad batch")), next(r))
r.close()


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


print(list(Countdown(3)), sum(Countdown(4)), list(zip(Countdown(2), Countdown(5))))
it = iter([1, 2])
print(next(it), next(it), next(it, "end"))
vals = [3, 2, 1]
print(list(iter(lambda: vals.pop() if vals else None, None)))
