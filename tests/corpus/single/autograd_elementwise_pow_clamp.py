# Gradients through elementwise ops: add/mul/div, pow, exp, log, sqrt, tanh, sigmoid, relu, abs, clamp, maximum.
import torch

device = "tpu"

x = torch.tensor([0.5, 1.5, -2.0, 3.0], device=device, requires_grad=True)
y = torch.tensor([2.0, -1.0, 0.5, 1.0], device=device, requires_grad=True)
(x * y + x / y - y).sum().backward()
print(x.grad.cpu(), y.grad.cpu())
x.grad = None
y.grad = None
(x.pow(3) + 2 ** y + x ** 2 * 0.5).sum().backward()
print(x.grad.cpu(), y.grad.cpu())
x.grad = None
(torch.exp(x) + torch.tanh(x) + torch.sigmoid(x)).sum().backward()
print(x.grad.cpu())
p = torch.tensor([0.25, 1.0, 4.0], device=device, requires_grad=True)
(torch.log(p) + torch.sqrt(p) + 1 / p).sum().backward()
print(p.grad.cpu())
x.grad = None
(torch.relu(x) * 2 + x.abs()).sum().backward()
print(x.grad.cpu())
x.grad = None
x.clamp(-1.0, 2.0).mul(3).sum().backward()
print(x.grad.cpu())
x.grad = None
x.clamp(min=0.0).pow(2).sum().backward()
print(x.grad.cpu())
x.grad = None
y.grad = None
torch.maximum(x, y).sum().backward()
print(x.grad.cpu(), y.grad.cpu())
z = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
out = ((z - 3) ** 2).mean()
out.backward()
print(out.item(), z.grad.cpu())
