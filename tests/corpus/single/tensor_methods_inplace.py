# Tensor methods: item, tolist, shape, size, dim, numel, to, cpu, detach, requires_grad_, backward, grad, zero_, in-place under no_grad.
import torch

device = "tpu"

x = torch.arange(12.0, device=device).reshape(3, 4)
print(x.shape, x.size(), x.size(0), x.size(-1), x.dim(), x.numel(), len(x))
print(x[1, 2].item(), type(x[1, 2].item()).__name__, x.tolist())
print(torch.tensor(5, device=device).item(), type(torch.tensor(5, device=device).item()).__name__)
print(torch.tensor(True, device=device).item(), x[0].tolist(), x.sum().item())
c = x.cpu()
print(c.device, c)
y = c.to(device)
print(y.device.type == device, y.to("cpu").sum().item())
w = torch.tensor([1.0, 2.0, 3.0], device=device)
print(w.requires_grad)
w.requires_grad_()
print(w.requires_grad, w.grad)
loss = (w * w).sum()
loss.backward()
print(w.grad.cpu(), w.grad.shape)
d = w.detach()
print(d.requires_grad, d.cpu())
with torch.no_grad():
    w.add_(1.0)
    w.mul_(2.0)
    w -= 0.5 * w.grad
print(w.detach().cpu(), w.requires_grad, w.is_leaf)
w.grad.zero_()
print(w.grad.cpu())
(w.sum() * 3).backward()
print(w.grad.cpu())
with torch.no_grad():
    w.sub_(w.grad)
    w += 1
print(w.detach().cpu())
a = torch.ones(2, 2, device=device)
a.add_(torch.eye(2, device=device)).mul_(3)
print(a.cpu(), a.add(1).cpu(), a.cpu())
