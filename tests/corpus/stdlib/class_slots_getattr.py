# __slots__ (no __dict__, AttributeError on new attributes), a Module-like class
# whose __setattr__ records float parameters and whose __getattr__ falls back
# to them, and a class attribute counter updated through type(self).
class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x, self.y = x, y


v = Vec(1, 2)
print(v.x, v.y, hasattr(v, "__dict__"), Vec.__slots__)
try:
    v.z = 3
except AttributeError as e:
    print(type(e).__name__, e)


class Module:
    def __init__(self):
        object.__setattr__(self, "_params", {})

    def __setattr__(self, name, value):
        if isinstance(value, float):
            self._params[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        if name in self._params:
            return self._params[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


m = Module()
m.weight = 0.5
m.bias = -0.1
m.name = "lin"
print(m._params, m.weight, m.name, "weight" in vars(m))
try:
    m.missing
except AttributeError as e:
    print(type(e).__name__, e)


class Counter:
    count = 0

    def __init__(self):
        type(self).count += 1

    @classmethod
    def reset(cls):
        cls.count = 0


Counter(), Counter()
print(Counter.count)
Counter.reset()
print(Counter.count, getattr(Counter, "count"), Counter().count, Counter.count)
