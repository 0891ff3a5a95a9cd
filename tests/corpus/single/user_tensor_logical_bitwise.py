# Feature flags and packed bit fields: logical ops on bool tensors, bitwise ops
# and shifts on int tensors, and tolerant float comparison with isclose/allclose.
import torch

device = "tpu"

active = torch.tensor([True, False, True, False], device=device)
paid = torch.tensor([True, True, False, False], device=device)
print(torch.logical_and(active, paid).tolist(), torch.logical_or(active, paid).tolist())
print(torch.logical_xor(active, paid).tolist(), torch.logical_not(active).tolist())
print((active & paid).tolist(), (active | paid).tolist(), (active ^ paid).tolist(), (~active).tolist())
print(active.logical_and(torch.tensor([1, 1, 0, 0], device=device)).tolist())
print(torch.logical_or(torch.tensor([0.0, 2.0], device=device), torch.tensor([0.0, 0.0], device=device)).tolist())

flags = torch.tensor([0b1010, 0b0110, 0b1111, 0], device=device)
mask = torch.tensor(0b0011, device=device)
print(torch.bitwise_and(flags, mask).tolist(), torch.bitwise_or(flags, 1).tolist())
print(torch.bitwise_xor(flags, 0b1111).tolist(), torch.bitwise_not(flags).tolist())
print((flags & 0b1000).tolist(), (flags | 0b0001).tolist(), (flags ^ flags).tolist(), (~flags).tolist())
print((flags >> 1).tolist(), (flags << 2).tolist())
print(torch.bitwise_left_shift(flags, 1).tolist(), torch.bitwise_right_shift(flags, 2).tolist())
i32 = flags.int()
print((i32 & 6).dtype, (i32 << 1).tolist())

# In place.
f = flags.clone()
f &= 0b0111
print(f.tolist())
f |= 0b1000
print(f.tolist())
f ^= 0b0001
print(f.tolist())
f.bitwise_and_(0b1100)
print(f.tolist())
b = active.clone()
b.logical_or_(paid)
print(b.tolist())

# Tolerant comparisons.
x = torch.tensor([1.0, 1.0001, 2.0, float("nan")], device=device)
y = torch.tensor([1.0, 1.0, 2.1, float("nan")], device=device)
print(torch.isclose(x, y).tolist())
print(torch.isclose(x, y, rtol=1e-3).tolist(), torch.isclose(x, y, equal_nan=True).tolist())
print(x.isclose(y, atol=0.2, equal_nan=True).tolist())
print(torch.allclose(x[:2], y[:2]), torch.allclose(x[:2], y[:2], rtol=1e-3), torch.allclose(x, y, atol=1, equal_nan=True))
print(torch.equal(flags, flags.clone()), torch.equal(active, paid))
try:
    flags.float() & 1
except RuntimeError as e:
    print("RuntimeError:", e)
