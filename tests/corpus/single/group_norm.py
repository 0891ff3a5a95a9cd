# nn.GroupNorm and F.group_norm: forward, gradients, the module's repr and
# state_dict, and the errors PyTorch gives for channels a group count does not
# divide.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
gn = nn.GroupNorm(2, 6).to(device)
print(gn, list(gn.state_dict().keys()))
x = torch.randn(3, 6, 4, 4, device=device, requires_grad=True)
y = gn(x)
print(y.shape, abs(round(y.mean().item(), 4)), round(y.std().item(), 4))
print(y[0, :3, 0, 0].detach().cpu())
(y * torch.arange(96.0, device=device).reshape(1, 6, 4, 4)).sum().backward()
print(x.grad[1, 0, :2].cpu(), gn.weight.grad.cpu(), gn.bias.grad.cpu())
print(y.grad_fn.name())

z = F.group_norm(torch.arange(24.0, device=device).reshape(2, 6, 2), 3, eps=1e-3)
print(z[0].cpu())
plain = nn.GroupNorm(3, 3, affine=False, eps=1e-4)
print(plain, plain.weight, list(plain.parameters()))
try:
    nn.GroupNorm(4, 6)
except ValueError as e:
    print("ValueError:", e)
try:
    F.group_norm(torch.ones(2, 6, 4, device=device), 4)
except RuntimeError as e:
    print("RuntimeError:", e)
