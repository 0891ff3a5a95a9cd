# Gradient accumulation across backward calls, retain_graph, no_grad, detach and requires_grad flags.
import torch

device = "tpu"

w = torch.tensor([1.0, -2.0, 0.5], device=device, requires_grad=True)
x = torch.tensor([2.0, 1.0, 4.0], device=device)
print(w.requires_grad, x.requires_grad, w.is_leaf, w.grad is None)
loss = (w * x).sum()
print(loss.requires_grad, loss.is_leaf, loss.grad_fn is not None)
loss.backward()
print(w.grad.cpu())
loss2 = (w ** 2).sum()
loss2.backward()
print(w.grad.cpu())
out = (w * w * x).sum()
out.backward(retain_graph=True)
print(w.grad.cpu())
out.backward()
print(w.grad.cpu())
w.grad.zero_()
print(w.grad.cpu())
with torch.no_grad():
    n = w * 2
    print(n.requires_grad, torch.is_grad_enabled())
print(torch.is_grad_enabled())
d = w.detach()
print(d.requires_grad, (d * w).requires_grad)
z = (w * w).detach() * w
z.sum().backward()
print(w.grad.cpu())
a = torch.ones(2, device=device)
b = a * 3
print(b.requires_grad)
a.requires_grad_(True)
c = (a * 3).sum()
c.backward()
print(a.grad.cpu(), b.requires_grad)
k = torch.tensor(3.0, device=device, requires_grad=True)
for _ in range(3):
    (k * k).backward()
print(k.grad.item())
