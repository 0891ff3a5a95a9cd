# Gradients through views (reshape, permute, transpose, expand, squeeze), indexing, cat and stack.
import torch

device = "tpu"

x = torch.arange(6.0, device=device).requires_grad_()
y = x.reshape(2, 3).T * torch.tensor([[1.0, 2.0]], device=device)
y.sum().backward()
print(x.grad.cpu())
x.grad = None
m = x.view(3, 2).permute(1, 0).unsqueeze(0)
(m.squeeze(0)[1] * torch.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
print(x.grad.cpu())
x.grad = None
x[1:5:2].sum().backward()
print(x.grad.cpu())
x.grad = None
idx = torch.tensor([0, 2, 2, 5], device=device)
(x[idx] * torch.tensor([1.0, 2.0, 3.0, 4.0], device=device)).sum().backward()
print(x.grad.cpu())
x.grad = None
x[x > 2.5].pow(2).sum().backward()
print(x.grad.cpu())
x.grad = None
x[-1].backward()
print(x.grad.cpu())
c = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
e = c.unsqueeze(1).expand(2, 3)
(e * torch.tensor([[1.0, 2.0, 3.0]], device=device)).sum().backward()
print(c.grad.cpu())
a = torch.tensor([[1.0, 2.0]], device=device, requires_grad=True)
b = torch.tensor([[3.0, 4.0], [5.0, 6.0]], device=device, requires_grad=True)
cat = torch.cat([a, b], dim=0)
(cat * torch.arange(6.0, device=device).reshape(3, 2)).sum().backward()
print(a.grad.cpu(), b.grad.cpu())
a.grad = None
b.grad = None
s = torch.stack([a[0], b[1], a[0] * b[0]], dim=1)
(s ** 2).sum().backward()
print(s.shape, a.grad.cpu(), b.grad.cpu())
p = torch.ones(2, 3, device=device, requires_grad=True)
p.flatten().cumsum(0).sum().backward()
print(p.grad.cpu())
