# Gradients through matmul/bmm and reductions: sum, mean, max, min, prod, var, std, logsumexp.
import torch

device = "tpu"

a = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]], device=device, requires_grad=True)
b = torch.tensor([[2.0, -1.0, 0.5], [1.0, 3.0, -2.0]], device=device, requires_grad=True)
(a @ b).sum().backward()
print(a.grad.cpu(), b.grad.cpu())
a.grad = None
b.grad = None
((a @ b) ** 2).mean().backward()
print(a.grad.cpu())
print(b.grad.cpu())
v = torch.tensor([1.0, -2.0], device=device, requires_grad=True)
(a.detach() @ v).sum().backward()
print(v.grad.cpu())
A = torch.arange(12.0, device=device).reshape(2, 2, 3).mul(0.1).requires_grad_()
B = torch.ones(2, 3, 2, device=device, requires_grad=True)
torch.bmm(A, B).pow(2).sum().backward()
print(A.grad.cpu(), B.grad.sum().item())
x = torch.tensor([[1.0, 4.0, 2.0], [3.0, -1.0, 5.0]], device=device, requires_grad=True)
(x.sum(dim=0) * torch.tensor([1.0, 2.0, 3.0], device=device)).sum().backward()
print(x.grad.cpu())
x.grad = None
x.mean(dim=1, keepdim=True).sum().backward()
print(x.grad.cpu())
x.grad = None
(x.max(dim=1).values.sum() + x.min()).backward()
print(x.grad.cpu())
x.grad = None
x.prod(dim=1).sum().backward()
print(x.grad.cpu())
x.grad = None
x.var(dim=1).sum().backward()
print(x.grad.cpu())
x.grad = None
x.std().backward()
print(x.grad.cpu())
x.grad = None
torch.logsumexp(x, dim=1).sum().backward()
print(x.grad.cpu())
