# Gradients through softmax and log_softmax (torch and F), along different dims, and cross-entropy style losses.
import torch
import torch.nn.functional as F

device = "tpu"

z = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], device=device, requires_grad=True)
w = torch.tensor([[1.0, 0.0, -1.0], [2.0, 1.0, 0.5]], device=device)
(torch.softmax(z, dim=1) * w).sum().backward()
print(z.grad.cpu())
z.grad = None
(z.softmax(dim=0) * w).sum().backward()
print(z.grad.cpu())
z.grad = None
torch.log_softmax(z, dim=1)[:, 1].sum().backward()
print(z.grad.cpu())
z.grad = None
(F.log_softmax(z, dim=-1) * w).sum().backward()
print(z.grad.cpu())
z.grad = None
p = F.softmax(z, dim=1)
loss = -(p * torch.log(p)).sum()
loss.backward()
print(f"{loss.item():.5f}", z.grad.cpu())
z.grad = None
target = torch.tensor([2, 0], device=device)
nll = -F.log_softmax(z, dim=1)[torch.arange(2, device=device), target].mean()
nll.backward()
print(f"{nll.item():.5f}", z.grad.cpu())
z.grad = None
ce = F.cross_entropy(z, target)
ce.backward()
print(f"{ce.item():.5f}", z.grad.cpu())
t = torch.tensor([0.2, -0.3, 0.9, 0.1], device=device, requires_grad=True)
(t.softmax(0) ** 2).sum().backward()
print(t.grad.cpu())
