# A lazy data pipeline of generators: each stage prints when it produces, so
# the interleaving shows that generator expressions and generator functions
# pull one item at a time; also early exit with break and generator close().
def read_lines():
    for i, line in enumerate(["a b", "c", "d e f", "", "g"]):
        print(f"  read {i}")
        yield line


def tokenize(lines):
    for line in lines:
        toks = line.split()
        print(f"  tokenize -> {toks}")
        yield from toks


def batch(tokens, n):
    buf = []
    for t in tokens:
        buf.append(t)
        if len(buf) == n:
            print(f"  batch {buf}")
            yield buf
            buf = []
    if buf:
        yield buf


for b in batch(tokenize(read_lines()), 2):
    print("consumer got", b)

squares = (print(f"  computing {x}") or x * x for x in range(4))
print("generator created, nothing computed yet")
print("first:", next(squares))
print("rest:", list(squares))
print("exhausted:", list(squares), next(squares, "default"))


def counter():
    n = 0
    try:
        while True:
            yield n
            n += 1
    finally:
        print("  counter cleaned up at", n)


c = counter()
for v in c:
    if v == 3:
        break
c.close()
print("sum of evens:", sum(x for x in range(10) if x % 2 == 0))
lines = (l.strip() for l in ["  x ", "y  ", ""])
nonempty = (l for l in lines if l)
print(list(nonempty), any(x > 3 for x in [1, 5]), all(x > 0 for x in []))
gen = (x for x in range(3))
print(type(gen).__name__, iter(gen) is gen, list(zip(gen, "ab")))
try:
    next(gen)
except StopIteration as e:
    print("StopIteration", e.value)
