# int64, bool and bfloat16 tensors: inference, promotion, casts and printing.
# These are cpu tensors (the reference backend) on purpose: the wgpu kernels are
# float32-only so far, so tpu tensors of these dtypes raise NotImplementedError.
import torch

a = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
c = torch.tensor([[1.5, -2.0], [3.25, 4.0]], dtype=torch.bfloat16)
print(a, b, c, sep="\n")
print(a.dtype, b.dtype, c.dtype, torch.tensor(3.5).dtype, torch.full((2,), 7).dtype)
print(a * 2, a / 2, a + 0.5, a - 1, a.sum(), b.sum(), b.long())
print((a * 2).tolist(), b.tolist(), c.tolist(), a.sum().item(), b.float())
print(torch.ones(2, 2, dtype=torch.int64), torch.full((2,), True), torch.zeros(2).long())
print(c * 2, c + c, c.float().sum().item(), (c @ c).float())
print(torch.tensor([0.1, 0.2, 0.3], dtype=torch.bfloat16).tolist())
print(torch.tensor([2.7, -2.7, 0.0]).long(), torch.tensor([2.7, 0.0]).bool(), torch.tensor([1, 0]).bool())
x = torch.tensor([[1, 2], [3, 4]]) @ torch.tensor([[1], [1]])
print(x, x.dtype, torch.tensor([], dtype=torch.int64), torch.empty(0, 3).shape)
print(torch.tensor(5) * 1.5, torch.tensor(True) + 0, torch.tensor([1.0]).to(torch.bfloat16))
