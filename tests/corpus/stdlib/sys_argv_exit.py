# The sys module as a training script's entry point uses it: argv, exit codes
# caught as SystemExit, writing to sys.stdout directly, version_info comparisons,
# sys.path being a list of strings, and the recursion limit.
import sys

print("argv:", sys.argv)
print("script:", sys.argv[0], "extra args:", sys.argv[1:])

for code in (0, 1, 3, "bad config", None):
    try:
        sys.exit(code)
    except SystemExit as e:
        print("SystemExit code:", repr(e.code), "args:", e.args)

sys.stdout.write("written with sys.stdout.write\n")
n = sys.stdout.write("abc\n")
print("write returned", n)
sys.stderr.write("this goes to stderr and is not recorded\n")

print("major is 3:", sys.version_info.major == 3)
print(">= (3, 8):", sys.version_info >= (3, 8))
print("< (4,):", sys.version_info < (4,))
print("tuple slice length:", len(sys.version_info[:2]))
print("version is str:", isinstance(sys.version, str))
print("path is list:", isinstance(sys.path, list), all(isinstance(p, str) for p in sys.path))
limit = sys.getrecursionlimit()
print("recursion limit positive:", limit > 100)
print("maxsize > 2**31:", sys.maxsize > 2**31)
print("byteorder known:", sys.byteorder in ("little", "big"))
print("float epsilon:", sys.float_info.epsilon)
print("modules has sys:", "sys" in sys.modules)


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


print("depth 200:", depth(200))
try:
    depth(10**6)
except RecursionError as e:
    print("RecursionError:", type(e).__name__)
