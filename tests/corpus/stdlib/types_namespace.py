# types for lightweight objects and checks: SimpleNamespace as an args/config
# object (repr, equality, vars, attribute errors), MappingProxyType as a
# read-only view, FunctionType/MethodType/LambdaType/GeneratorType checks, and
# building a function and a class with types.
import types

args = types.SimpleNamespace(lr=0.1, epochs=3, device="cpu")
print(args, args.lr, vars(args), args == types.SimpleNamespace(device="cpu", epochs=3, lr=0.1))
args.batch_size = 32
del args.device
print(args, hasattr(args, "device"), getattr(args, "device", "none"))
try:
    args.missing
except AttributeError as e:
    print(type(e).__name__, e)
nested = types.SimpleNamespace(model=types.SimpleNamespace(dim=64), **{"name": "x"})
print(nested, nested.model.dim)
defaults = {"lr": 0.1, "wd": 0.0}
view = types.MappingProxyType(defaults)
print(view["lr"], len(view), dict(view), "wd" in view)
try:
    view["lr"] = 1
except TypeError as e:
    print(type(e).__name__, e)
defaults["new"] = 1
print(sorted(view), type(view).__name__, type(int.__dict__).__name__)


def f(x):
    return x


class C:
    def m(self):
        return 1


def gen():
    yield 1


print(isinstance(f, types.FunctionType), isinstance(lambda: 0, types.LambdaType), isinstance(len, types.FunctionType))
print(isinstance(len, types.BuiltinFunctionType), isinstance(C().m, types.MethodType), isinstance(C.m, types.FunctionType))
print(isinstance(gen(), types.GeneratorType), isinstance(types, types.ModuleType), type(None) is types.NoneType)
mod = types.ModuleType("plugins", "dynamic module")
mod.value = 42
print(mod.__name__, mod.__doc__, mod.value)
bound = types.MethodType(lambda self, k: k * 2, C())
print(bound(21))
Point = types.new_class("Point", (), {}, lambda ns: ns.update({"dims": 2}))
print(Point.__name__, Point.dims)
code = compile("def g(a, b=2):\n    return a * b\n", "<gen>", "exec")
ns = {}
exec(code, ns)
g2 = types.FunctionType(ns["g"].__code__, {}, "g2", (10, 20))
print(g2(3), g2(), g2.__name__)
