# Code that builds code: eval of expressions with controlled globals and
# locals, exec of generated function definitions and classes, compile() modes,
# globals()/locals() inspection and modification, and errors from bad code.
import math

print(eval("1 + 2 * 3"), eval("x ** 2", {"x": 7}), eval("a + b", {}, {"a": 1, "b": 2}))
print(eval("sqrt(16) + pi", {"sqrt": math.sqrt, "pi": 0.0}), eval("[i * i for i in range(4)]"))
safe = {"__builtins__": {}}
try:
    eval("open('x')", safe)
except NameError as e:
    print(type(e).__name__, e)
src = ""
for name, factor in [("double", 2), ("triple", 3)]:
    src += f"def {name}(x):\n    return x * {factor}\n"
ns = {}
exec(src, ns)
print(ns["double"](5), ns["triple"](5), sorted(k for k in ns if not k.startswith("__")))
activations = {"relu": "max(0, x)", "identity": "x", "square": "x * x"}
fns = {k: eval(f"lambda x: {v}") for k, v in activations.items()}
print({k: f(-3) for k, f in fns.items()})
exec("class Gen:\n    value = 41\n    def get(self):\n        return self.value + 1\n", ns)
print(ns["Gen"]().get(), ns["Gen"].__name__)
code = compile("total = sum(values)", "<config>", "exec")
scope = {"values": [1, 2, 3]}
exec(code, scope)
print(scope["total"], compile("3 + 4", "<e>", "eval").co_filename, eval(compile("3 + 4", "<e>", "eval")))
counter = 0
globals()["counter"] = 10
globals()["created_dynamically"] = "yes"
print(counter, created_dynamically, "math" in globals(), globals()["__name__"])


def f(a, b=2):
    c = a + b
    return sorted(locals().items())


print(f(1))
exec("new_global = 5")
print(new_global)
loc = {}
exec("y = 3\nz = y * 2", {}, loc)
print(loc)
for bad in ["1 +", "def f(:", "x = = 1"]:
    try:
        compile(bad, "<bad>", "exec")
    except SyntaxError as e:
        print(type(e).__name__, e.msg, e.lineno, e.filename)
try:
    eval("undefined_name + 1")
except NameError as e:
    print(type(e).__name__, e)
try:
    exec("return 1")
except SyntaxError as e:
    print(type(e).__name__, e.msg)
print(type(eval("lambda: 0")).__name__, eval("(1, 2)"), eval(repr({"a": [1.5, None]})))
