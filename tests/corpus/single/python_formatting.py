# Formatting numbers and containers exactly as CPython does.
import math

values = [0.1 + 0.2, 1 / 3, 2.5, 1e-5, 1e16, 123456789.0, -0.0, math.pi * 1e8, 1e22, 5e-324]
print(values)
print([round(v, 3) for v in values[:4]], round(2.5), round(3.5), round(-0.5))
for v in [math.pi, 1234.5678, 0.000123, 42.0]:
    print(f"{v:.3f}|{v:10.2e}|{v:g}|{v:+.1%}|{v:<9.2f}|{v:^9.1f}|")
print(f"{42:5d}|{42:<5d}|{42:^5d}|{-42:05d}|{1234567:,}|{255:#x}|{255:08b}|{7:03}")
print("{0} {1!r} {name:>6}".format("a", "b", name="c"), "{:.2f}".format(2 / 3))
print(str(1.0), repr("it's"), repr('say "hi"'), str(None), [None, True, (1,), {}, set()])
print({"k": [1.5, (2, 3)], 4: None}, {1, 2, 3}, (), (1, 2), list(range(0)))
print(f"{'left':<8}|{'right':>8}|{'mid':^9}|", "x" * 3 + "y", "-".join(["a", "b"]))
print(int("42") + int(3.9), float("1e3"), abs(-7.5), divmod(17, 5), 2 ** 0.5, 10 // 3, -10 // 3)
print(sum([0.1] * 10), math.floor(-2.5), math.ceil(2.1), math.sqrt(16), math.exp(1))
