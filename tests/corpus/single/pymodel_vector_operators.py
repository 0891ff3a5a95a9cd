# A small 2-D vector class with every arithmetic operator, mixed with Python numbers and tensors.
import torch

device = "tpu"


class Vec2:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Vec2({self.x:g}, {self.y:g})"

    def _coerce(self, other):
        if isinstance(other, Vec2):
            return other
        if isinstance(other, (int, float)):
            return Vec2(other, other)
        return None

    def __add__(self, other):
        o = self._coerce(other)
        return NotImplemented if o is None else Vec2(self.x + o.x, self.y + o.y)

    __radd__ = __add__

    def __sub__(self, other):
        o = self._coerce(other)
        return NotImplemented if o is None else Vec2(self.x - o.x, self.y - o.y)

    def __rsub__(self, other):
        return Vec2(other - self.x, other - self.y)

    def __mul__(self, k):
        if isinstance(k, Vec2):
            return self.x * k.x + self.y * k.y
        return Vec2(self.x * k, self.y * k)

    def __rmul__(self, k):
        if isinstance(k, torch.Tensor):
            return k * torch.tensor([self.x, self.y], device=k.device)
        return Vec2(self.x * k, self.y * k)

    def __truediv__(self, k): return Vec2(self.x / k, self.y / k)
    def __rtruediv__(self, k): return Vec2(k / self.x, k / self.y)
    def __floordiv__(self, k): return Vec2(self.x // k, self.y // k)
    def __mod__(self, k): return Vec2(self.x % k, self.y % k)
    def __pow__(self, k): return Vec2(self.x ** k, self.y ** k)
    def __rpow__(self, k): return Vec2(k ** self.x, k ** self.y)
    def __matmul__(self, other): return self.x * other.y - self.y * other.x
    def __neg__(self): return Vec2(-self.x, -self.y)
    def __pos__(self): return Vec2(self.x, self.y)
    def __abs__(self): return (self.x ** 2 + self.y ** 2) ** 0.5
    def __eq__(self, other): return isinstance(other, Vec2) and (self.x, self.y) == (other.x, other.y)
    def __lt__(self, other): return abs(self) < abs(other)
    def __bool__(self): return self.x != 0 or self.y != 0


a, b = Vec2(3, 4), Vec2(1, -2)
print(a + b, a - b, a + 1, 1 + a, 10 - a)
print(a * 2, 2 * a, a * b, a / 2, 12 / a, a // 2, a % 2)
print(a ** 2, 2 ** b, a @ b, -a, +b, abs(a))
print(a == Vec2(3, 4), a != b, a < b, a > b)
try:
    a <= a
except TypeError as e:
    print("TypeError:", e)
print(sorted([a, b, Vec2(0, 1)]), max(a, b), min([a, b]))
print(sum([a, b, Vec2(1, 1)]), bool(Vec2(0, 0)), bool(b))
for bad in ["text", None]:
    try:
        a - bad
    except TypeError as e:
        print("TypeError:", e)
t = torch.tensor([0.5, 2.0], device=device)
print((t * a).cpu())
with torch.no_grad():
    scaled = 3.0 * Vec2(t[0].item(), t[1].item())
print(scaled)
