# The fused multiply-add products a linear layer and a batched attention use:
# addmm, addmv, baddbmm, addbmm, outer, kron, tensordot, dot, inner and vdot.
import torch

device = "tpu"
torch.manual_seed(4)

x = torch.randn(4, 3, device=device)
W = torch.randn(3, 2, device=device)
bias = torch.randn(2, device=device)
lin = torch.addmm(bias, x, W)
print(torch.allclose(lin, x @ W + bias, atol=1e-6), lin.shape)
print(torch.allclose(torch.addmm(bias, x, W, beta=0.5, alpha=2.0), 0.5 * bias + 2.0 * (x @ W), atol=1e-6))

v = torch.randn(3, device=device)
print(torch.allclose(torch.addmv(bias[:1].expand(4), x, v), x @ v + bias[0], atol=1e-6))
print(torch.mv(x, v).shape)

b1 = torch.randn(2, 4, 3, device=device)
b2 = torch.randn(2, 3, 5, device=device)
c = torch.zeros(2, 4, 5, device=device)
print(torch.allclose(torch.baddbmm(c, b1, b2, alpha=0.5), 0.5 * torch.bmm(b1, b2), atol=1e-6))
print(torch.allclose(torch.addbmm(torch.zeros(4, 5, device=device), b1, b2), torch.bmm(b1, b2).sum(0), atol=1e-5))

p = torch.tensor([1.0, 2.0, 3.0], device=device)
q = torch.tensor([0.5, -1.0], device=device)
print(torch.outer(p, q).cpu())
print(torch.ger(p, q).shape, p.outer(q).sum().item())
print(torch.kron(torch.tensor([[1, 2], [3, 4]], device=device), torch.tensor([[0, 1], [1, 0]], device=device)).cpu())
print(torch.dot(p, p).item(), torch.inner(p, p).item(), torch.vdot(p, p).item())

T1 = torch.arange(24.0, device=device).reshape(2, 3, 4)
T2 = torch.arange(12.0, device=device).reshape(4, 3)
print(torch.tensordot(T1, T2, dims=([1, 2], [1, 0])).cpu())
print(torch.tensordot(T1, T2, dims=1).shape)
print(torch.tensordot(torch.ones(2, 3, device=device), torch.ones(2, 3, device=device), dims=2).item())

# In-place accumulate into a buffer.
acc = torch.zeros(4, 2, device=device)
acc.addmm_(x, W)
acc.addmm_(x, W, alpha=-1.0)
print(acc.abs().max().item())
out = torch.empty(4, 2, device=device)
torch.matmul(x, W, out=out)
print(torch.allclose(out, lin - bias, atol=1e-6))
try:
    torch.mm(x, x)
except RuntimeError as e:
    print("RuntimeError:", e)
