# String formatting in log lines: %-formatting (d, i, f, e, g, s, r, x, %%, and
# a mapping), str.format with positional/named fields, attributes and index,
# f-strings with format specs (width, fill, align, sign, precision, thousands,
# percent, types), !r/!s, = debugging, and nested specs.
loss, step, lr = 0.123456789, 42, 3e-4
print("step %d loss %.4f lr %.2e" % (step, loss, lr))
print("%5d|%-5d|%05d|%+d|%x|%X|%o|%e|%g|%g" % (42, 42, 42, 42, 255, 255, 8, 12345.678, 0.0001, 1e20))
print("%s %r %% %c %i" % ("str", "str", 65, 3.9), "%(name)s=%(val).2f" % {"name": "acc", "val": 0.9123})
print("%10.3f|%-10s|%.3s" % (3.14159, "left", "truncate"), "%s" % (1, ), "%s" % [1, 2])
try:
    print("%d" % "x")
except TypeError as e:
    print(type(e).__name__, e)
print("{} {} {}".format(1, "a", None), "{1} {0} {1}".format("a", "b"), "{name}:{val:.3f}".format(name="x", val=2))
print("{0[1]} {1.real} {d[k]}".format([5, 6], 3 + 4j, d={"k": "v"}), "{:>8}|{:<8}|{:^8}|".format("r", "l", "c"))
print(f"{step:>6}|{step:<6}|{step:^6}|{step:06d}|{step:*^9}|{-step:=+8}|")
print(f"{loss:.3f} {loss:.2e} {loss:.3g} {loss:%} {loss:.1%} {1234567.891:,.2f} {1234567:_d} {0.5:+.1f}")
print(f"{255:b} {255:#b} {255:o} {255:#x} {255:#X} {65:c} {1e-7:g} {1e16:g} {123.0:g} {0.0:e}")
print(f"{'str':>10} {'s'!r} {3.0!s} {[1, 2]!r:>10} {None} {True:d} {True}")
width, prec = 12, 3
print(f"|{loss:{width}.{prec}f}|", f"{'dyn':{'<'}{width}}|")
print(f"{step=} {lr=:.0e} {loss * 2 = :.2f}")
d = {"a": 1}
print(f"{d['a']} {'nested ' + f'{step}'} {'{'}literal{'}'} {{braces}}")
items = [("train", 0.5, 100), ("validation", 0.123, 20)]
print(f"{'split':<12}{'loss':>8}{'n':>6}")
for name, l, n in items:
    print(f"{name:<12}{l:>8.3f}{n:>6d}")
print(format(0.5, ".0%"), format(3, "03"), format("x", "^5"), format(2.0), format(1e100), str(1e16), str(1e15), repr(0.1 + 0.2))
print(f"{float('nan'):.2f} {float('inf'):>6} {-0.0:.1f} {1.005:.2f} {2.5:.0f} {3.5:.0f} {0.1:.20f}")
print(round(0.1 + 0.2, 10), str(1 / 3), 1e-5, 123456789.0, 1.0e22, 12345678901234567890.0, 100.0, 2.0 ** 0.5)
