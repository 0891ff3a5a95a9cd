# Activation modules ReLU, GELU, Tanh, Sigmoid, Softmax and their F.* counterparts, forward and backward.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"

x = torch.tensor([[-2.8, -0.5, 0.0, 0.7, 2.5], [1.0, -1.0, 4.0, -2.0, 0.25]], device=device)
print(nn.ReLU()(x).cpu())
print(nn.GELU()(x).cpu())
print(nn.Tanh()(x).cpu())
print(nn.Sigmoid()(x).cpu())
print(nn.Softmax(dim=1)(x).cpu())
print(nn.Softmax(dim=0)(x).cpu())
print(F.relu(x).sum().item(), F.gelu(x).sum().item())
print(F.tanh(x)[0].cpu(), F.sigmoid(x)[1].cpu())
print(F.gelu(x, approximate="tanh").cpu())
print(F.softmax(x, dim=-1).sum(dim=-1).cpu())
print(F.log_softmax(x, dim=1).cpu())
print(torch.tanh(x).max().item(), torch.sigmoid(torch.tensor([0.0], device=device)).item())
print(nn.ReLU(), nn.GELU(), nn.Tanh(), nn.Sigmoid(), nn.Softmax(dim=-1))
g = torch.tensor([-1.5, -0.2, 0.3, 2.0], device=device, requires_grad=True)
for fn in [F.relu, F.gelu, torch.tanh, torch.sigmoid]:
    g.grad = None
    fn(g).sum().backward()
    print(g.grad.cpu())
g.grad = None
(F.softmax(g, dim=0) * torch.arange(4.0, device=device)).sum().backward()
print(g.grad.cpu())
