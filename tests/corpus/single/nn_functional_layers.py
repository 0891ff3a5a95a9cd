# Functional layers: F.linear, F.embedding, F.layer_norm (with and without affine), F.relu chain, with gradients.
import torch
import torch.nn.functional as F

device = "tpu"

x = torch.tensor([[1.0, 2.0, -1.0], [0.0, -0.5, 3.0]], device=device, requires_grad=True)
W = torch.tensor([[0.5, -1.0, 0.25], [1.0, 0.0, -2.0]], device=device, requires_grad=True)
b = torch.tensor([0.1, -0.2], device=device, requires_grad=True)
y = F.linear(x, W, b)
print(y.detach().cpu(), F.linear(x, W).shape)
F.relu(y).sum().backward()
print(x.grad.cpu(), W.grad.cpu(), b.grad.cpu())
table = torch.arange(12.0, device=device).reshape(4, 3).requires_grad_()
ids = torch.tensor([3, 1, 3], device=device)
e = F.embedding(ids, table)
print(e.detach().cpu())
(e * torch.tensor([[1.0], [2.0], [3.0]], device=device)).sum().backward()
print(table.grad.cpu())
print(F.embedding(torch.tensor([[0, 2], [1, 1]], device=device), table).shape)
h = torch.tensor([[1.0, 2.0, 4.0, 8.0], [3.0, 3.5, -3.0, -2.0]], device=device, requires_grad=True)
n = F.layer_norm(h, (4,))
print(n.detach().cpu())
g = torch.tensor([1.0, 2.0, 0.5, -1.0], device=device, requires_grad=True)
beta = torch.tensor([0.0, 0.1, 0.2, 0.3], device=device, requires_grad=True)
n2 = F.layer_norm(h, (4,), weight=g, bias=beta, eps=1e-5)
print(n2.detach().cpu())
(n2 * torch.tensor([1.0, -1.0, 0.5, 2.0], device=device)).sum().backward()
print(h.grad.cpu())
print(g.grad.cpu(), beta.grad.cpu())
print(F.layer_norm(h.detach(), (2, 4)).cpu())
