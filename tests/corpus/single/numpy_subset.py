# The numpy subset (crates/tpu-torch/prelude/numpy): arrays of tensors and of
# lists, NumPy 2 scalar reprs, where, promotion, torch.from_numpy and Tensor.numpy,
# as training scripts use them beside torch.
import numpy as np
import torch

device = "tpu"

t = torch.tensor([3, 1, 2, 1, 0, 1])
a = np.array(t.clone(), dtype=None, copy=None)
print(type(a).__name__, a.dtype, a.shape, a.ndim, a.size, len(a))
print(repr(a), a)
m = a == 1
print(repr(m), m.dtype)
idx = np.where(m)[0]
print(repr(idx), idx.shape[0], repr(idx[1]), idx[1], type(idx[1]).__name__)
print(t[idx[2]], torch.tensor([[1, 2], [3, 4]])[np.int64(1)])
b = np.array([[1, 2, 3], [4, 5, 6]])
print(repr(b))
print(b)
print(repr(b.T), b.sum(), repr(b.sum(0)), repr(b.max()), b.mean(), b.mean(1).tolist())
print((b / 2).tolist(), (b / 2).dtype, (b * 1.5).dtype, (b + 1).dtype, (b // 2).dtype)
print(repr(np.arange(5)), repr(np.zeros(3).dtype), repr(np.ones((2, 2), dtype=np.int32)))
c = np.arange(6, dtype=np.int64).astype(np.int32)
print(repr(c), c.dtype == np.int32, c.dtype == "int32", c.dtype)
x = torch.from_numpy(np.arange(4).astype(np.int64))
print(x, x.dtype)
y = torch.tensor([1.0, 2.0]).numpy()
print(type(y).__name__, y.dtype, y.tolist())
print(repr(np.float32(0.1)), repr(np.float64(0.5)), repr(np.int64(7)), np.int64(7) + 1, repr(np.bool_(True)))
print(np.where(np.array([1, 0, 2]) > 0, 10, 20).tolist())
print(repr(np.concatenate([np.arange(2), np.arange(3)])), repr(np.stack([np.arange(2), np.arange(2)])))
print(repr(np.array([True, False, True])), repr(np.array([[1, -20], [300, 4]])))
for v in np.array([5, 6]):
    print(repr(v))
np.random.seed(1337)
try:
    torch.from_numpy([1, 2])
except TypeError as e:
    print("TypeError:", e)
try:
    bool(np.array([1, 2]))
except ValueError as e:
    print("ValueError:", e)
print(a.argmax(), repr(a.argmax()), a[1:3].tolist(), repr(a[a > 1]))

w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], device=device)
h = w.cpu().numpy()
print(h.dtype, h.shape, h.tolist(), (h * 2).dtype, repr(h.sum()), repr(h[0, 1]))
print((torch.from_numpy(h).to(device) @ w).cpu())
