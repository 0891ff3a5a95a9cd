# Gradients through where, masked_fill, clamp, triu/tril and causal masked softmax.
import torch

device = "tpu"

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -0.5]], device=device, requires_grad=True)
y = torch.tensor([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]], device=device, requires_grad=True)
torch.where(x > 0, x * x, y * x).sum().backward()
print(x.grad.cpu(), y.grad.cpu())
x.grad = None
m = torch.tensor([[True, False, False], [False, True, True]], device=device)
(x.masked_fill(m, 0.0) * 3).sum().backward()
print(x.grad.cpu())
x.grad = None
x.masked_fill(x < 0, -1.0).pow(2).sum().backward()
print(x.grad.cpu())
x.grad = None
(x.clamp(-1.0, 2.0) * torch.arange(6.0, device=device).reshape(2, 3)).sum().backward()
print(x.grad.cpu())
s = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 1.0], [1.0, 0.5, -1.0]], device=device, requires_grad=True)
(torch.triu(s) * 2 + torch.tril(s, -1) * 5).sum().backward()
print(s.grad.cpu())
s.grad = None
causal = torch.triu(torch.ones(3, 3, device=device), diagonal=1).bool()
att = s.masked_fill(causal, float("-inf")).softmax(dim=-1)
(att * torch.tensor([[1.0, 2.0, 3.0]], device=device)).sum().backward()
print(att.detach().cpu())
print(s.grad.cpu())
