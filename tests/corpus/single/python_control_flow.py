# Loops, branches and functions: the control flow around a training loop.
def schedule(step, warmup=3, base=0.1):
    if step < warmup:
        return base * (step + 1) / warmup
    elif step < 6:
        return base
    else:
        return base * 0.5 ** (step - 5)


lrs = [round(schedule(s), 4) for s in range(9)]
print(lrs)

total = 0
for i in range(100):
    if i % 2:
        continue
    if i > 10:
        break
    total += i
else:
    total = -1
print(total)

n, steps = 27, 0
while n != 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)

for i in range(3):
    pass
else:
    print("loop finished with i =", i)


def fib(k):
    return k if k < 2 else fib(k - 1) + fib(k - 2)


def apply(f, *args, **kwargs):
    return f(*args, **kwargs)


print([fib(k) for k in range(12)], apply(max, 3, 9, 4), apply(sorted, [3, 1, 2], reverse=True))
words = ["mxu", "ici", "hbm", "vmem"]
print({w: i for i, w in enumerate(words)}, [w.upper() for w in words if len(w) == 3])
x = 5
print("big" if x > 3 else "small", x if x else 0, not x, x and 0, 0 or x, (y := x * 2) + y)
