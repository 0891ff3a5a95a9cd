# tan and atan (with their aliases arctan, arcsin, arccos), values and
# gradients: arctan undoes tan and exp undoes log exactly where PyTorch's do.
import torch

device = "tpu"
x = torch.arange(5, device=device) + 1
y = torch.exp(torch.tan(torch.arctan(torch.log(x))))
print(y.cpu(), y.dtype)
t = torch.tensor([-2.0, -0.5, 0.0, 0.3, 1.0, 10.0], device=device, requires_grad=True)
a = torch.atan(t)
print(a.detach().cpu(), a.grad_fn.name())
a.sum().backward()
print(t.grad.cpu())
u = torch.tensor([-1.2, -0.4, 0.0, 0.7, 1.5], device=device, requires_grad=True)
v = torch.tan(u)
print(v.detach().cpu(), v.grad_fn.name())
v.sum().backward()
print(u.grad.cpu())
w = torch.tensor([-0.9, -0.25, 0.0, 0.5, 0.99], device=device)
print(torch.arcsin(w).cpu(), torch.arccos(w).cpu(), w.arctan().cpu())
print(torch.arctan.__name__, torch.atan.__name__, torch.tan(torch.tensor(float("inf"))).isnan().item())
print(torch.atan(torch.tensor([float("inf"), float("-inf"), float("nan")])))
