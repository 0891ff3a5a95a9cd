# print() and the standard streams as progress reporting uses them: sep, end,
# file=sys.stdout/sys.stderr (only stdout is recorded), flush=True, carriage-
# return progress bars, print of various objects, and sys.stdout attributes.
import sys

print("a", "b", "c")
print("a", "b", "c", sep="")
print("a", "b", sep=", ", end=" <end>\n")
print()
print("no newline", end="")
print(" ... continued")
print("to stderr, not recorded", file=sys.stderr)
print("explicit stdout", file=sys.stdout, flush=True)
for i in range(0, 101, 25):
    bar = "#" * (i // 10) + "." * (10 - i // 10)
    print(f"\r[{bar}] {i:3d}%", end="", flush=True)
print()
print(None, True, 1.0, 1e-20, [1, (2, 3)], {"k": {1, 2}}, b"bytes", 3 + 0j, print.__name__)
print(*range(5))
print(*["x", "y"], sep="\n")
print(sys.stdout.encoding.lower().replace("-", ""), sys.stdout.writable(), sys.stdout.isatty())
print(sys.stderr is not sys.stdout, sys.stdout is sys.__stdout__)
try:
    print("x", sep=3)
except TypeError as e:
    print(type(e).__name__, e)
lines = ["epoch 1", "epoch 2"]
sys.stdout.writelines(line + "\n" for line in lines)
print("%-10s|%5.1f" % ("loss", 0.25), "done", sep="\t")
