# int32 and float64 tensors as PyTorch users write them: `.int()`, `.double()`,
# `dtype=torch.float64`; promotion, casts, printing, reductions and autograd.
import torch

device = "tpu"

a = torch.tensor([1, 2, 3], dtype=torch.int32, device=device)
d = torch.tensor([1.5, 2.25, -0.125], dtype=torch.float64, device=device)
print(a.cpu(), d.cpu(), sep="\n")
print(a.dtype, d.dtype, torch.double, torch.int, torch.double is torch.float64, torch.int is torch.int32)
print(torch.tensor([], dtype=torch.int32), torch.tensor([], dtype=torch.float64))

# Promotion: same category keeps the wider type; Python numbers do not widen.
i64 = torch.tensor([10, 20, 30], device=device)
f32 = torch.tensor([0.5, 0.25, 2.0], device=device)
for r in [a + i64, a + f32, a * 2, a * 2.5, a / 2, a + True, d + f32, d * 2, f32 + 1.5, a + d]:
    print(r.dtype, r.cpu())
bf = torch.tensor([1.0, 2.0], dtype=torch.bfloat16, device=device)
print((bf + torch.tensor([0.5, 0.5], dtype=torch.float64, device=device)).dtype)
print((a + torch.tensor(5, device=device)).dtype, (f32 + torch.tensor(5.0, dtype=torch.float64, device=device)).dtype)

# float64 computes in double precision.
x = torch.tensor([0.1, 1.0 / 3.0], dtype=torch.float64, device=device)
print((x * 3).tolist(), x.sum().item(), (x * 3).cpu())
print(torch.tensor([0.1, 0.2], dtype=torch.float64).tolist(), torch.tensor([0.1, 0.2]).tolist())
print(x.exp().tolist(), x.log().tolist(), x.sqrt().tolist(), x.tanh().tolist())
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, device=device) / 3
print((m @ m).cpu(), (m @ m).tolist())
print(torch.tensor([1e-10, 1e10], dtype=torch.float64), torch.tensor([123456789.0], dtype=torch.float64))

# int32 arithmetic wraps at 32 bits; floor division and remainder follow Python.
big = torch.tensor([2147483647, -7, 7], dtype=torch.int32, device=device)
print((big + 1).cpu(), (big // 2).cpu(), (big % 3).cpu(), (-big).cpu(), big.abs().cpu())

# Casts both ways.
f = torch.tensor([2.7, -2.7, 0.0], device=device)
print(f.int().cpu(), f.double().cpu(), a.float().cpu(), a.double().cpu(), d.int().cpu(), d.float().cpu())
print(f.to(torch.float64).dtype, a.to(torch.int64).dtype, a.long().cpu(), d.bool().cpu(), a.to(dtype=torch.float64).cpu())

# Reductions: sums of integers are int64; max keeps the dtype.
print(a.sum().dtype, a.sum().item(), a.max().dtype, a.max().item(), a.argmax().item(), d.sum().dtype, d.mean().item())
print(a.cumsum(0).dtype, d.max().cpu(), d.min().item(), a.prod().item(), a.dtype is torch.int32)

# Creation with dtype.
print(torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.int32), torch.full((2,), 1.5, dtype=torch.float64))
print(torch.arange(4, dtype=torch.int32), torch.arange(0, 1, 0.25, dtype=torch.float64), torch.zeros_like(a).cpu())

# Comparisons, where and indexing.
print((a == i64 // 10).cpu(), (d > 0).cpu(), torch.where(a > 1, a, torch.zeros_like(a)).cpu())
print(a[torch.tensor([0, 2], device=device)].cpu(), d[torch.tensor([2, 0], device=device)].cpu(), a[1].item(), d[0].item())

# Autograd in float64.
w = torch.tensor([1.0, 2.0], dtype=torch.float64, device=device, requires_grad=True)
loss = (w * w * 3).sum()
loss.backward()
print(loss.item(), w.grad.cpu(), w.grad.dtype)
