# A user class wrapping a tensor, mixing with tensors on both sides via __r*__ and in-place ops falling back to binary ones.
import torch

device = "tpu"
torch.manual_seed(11)


class Masked:
    def __init__(self, data, mask):
        self.data = data
        self.mask = mask

    def __repr__(self):
        return f"Masked({self.data.cpu().tolist()}, n={int(self.mask.sum().item())})"

    def _wrap(self, out):
        return Masked(out, self.mask)

    def __add__(self, other):
        other = other.data if isinstance(other, Masked) else other
        return self._wrap(torch.where(self.mask, self.data + other, self.data))

    def __radd__(self, other):
        return self + other

    def __mul__(self, other):
        return self._wrap(torch.where(self.mask, self.data * other, self.data))

    __rmul__ = __mul__

    def __rsub__(self, other):
        return self._wrap(torch.where(self.mask, other - self.data, self.data))

    def __rtruediv__(self, other):
        return self._wrap(torch.where(self.mask, other / self.data, self.data))

    def __rmatmul__(self, other):
        return other @ (self.data * self.mask)

    def __imul__(self, k):
        self.data = torch.where(self.mask, self.data * k, self.data)
        return self

    def __neg__(self):
        return self * -1

    def __len__(self):
        return int(self.mask.sum().item())

    def __bool__(self):
        return bool(self.mask.any())


data = torch.tensor([1.0, 2.0, 3.0, 4.0], device=device)
m = Masked(data, data > 2)
print(m, len(m), bool(m), bool(Masked(data, data > 9)))
print(m + 1, 1 + m, 10 - m, 12 / m)
print(2 * m, m * torch.tensor(0.5, device=device))
print(torch.ones(4, device=device) + m)
print((torch.ones(2, 4, device=device) @ m).cpu().tolist())
total = m
total += 1
print(total is m, total)
m *= 3
print(m, -m)
try:
    m - 1
except TypeError as e:
    print("TypeError:", e)
