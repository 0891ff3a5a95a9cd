# nn.utils.clip_grad_norm_: returned total norm and clipped gradients, with clipping active and inactive.
import torch
import torch.nn as nn

device = "tpu"

a = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
b = torch.tensor([[0.5, -1.0], [2.0, 0.0]], device=device, requires_grad=True)
loss = (a * torch.tensor([3.0, 4.0], device=device)).sum() + (b * b).sum() * 2
loss.backward()
print(a.grad.cpu(), b.grad.cpu())
total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
print(f"{total.item():.5f}")
print(a.grad.cpu(), b.grad.cpu())
print(f"{torch.sqrt(a.grad.pow(2).sum() + b.grad.pow(2).sum()).item():.5f}")
total2 = nn.utils.clip_grad_norm_([a, b], max_norm=5.0)
print(f"{total2.item():.5f}", a.grad.cpu())
lin = nn.Linear(2, 2).to(device)
with torch.no_grad():
    lin.weight[:] = torch.tensor([[1.0, -1.0], [0.5, 2.0]], device=device)
    lin.bias[:] = 0.5
x = torch.tensor([[1.0, 2.0], [3.0, -1.0]], device=device)
lin(x).pow(2).sum().backward()
print(lin.weight.grad.cpu(), lin.bias.grad.cpu())
n = nn.utils.clip_grad_norm_(lin.parameters(), 10.0)
print(f"{n.item():.4f}")
print(lin.weight.grad.cpu(), lin.bias.grad.cpu())
