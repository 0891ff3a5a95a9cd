# F.pad (constant with negative amounts, reflect, replicate, circular) and
# Tensor.unfold as a view, with their gradients.
import torch
import torch.nn.functional as F

device = "tpu"
a = torch.arange(12.0, device=device).view(1, 3, 4)
print(F.pad(a, (1, 2)).cpu())
print(F.pad(a, (1, 1, 2, 0), value=-1.5).cpu())
print(F.pad(a, (-1, 1)).cpu())
print(F.pad(a, (2, 1), mode="reflect").cpu())
print(F.pad(a, (2, 1), mode="replicate").cpu())
print(F.pad(a, (1, 3), mode="circular").cpu())
print(F.pad(a.view(1, 1, 3, 4), (1, 1, 1, 1), mode="reflect").cpu())
r = a.clone().requires_grad_()
F.pad(r, (2, 1), mode="reflect").sum().backward()
print(r.grad.cpu())
r.grad = None
out = F.pad(r, (1, 1, 1, 1), value=3.0)
print(out.grad_fn.name())
(out * torch.arange(out.numel(), device=device).view(out.shape)).sum().backward()
print(r.grad.cpu())
v = torch.arange(10.0, device=device)
u = v.unfold(0, 4, 3)
print(u.cpu(), u.stride(), u.is_contiguous())
m = torch.arange(20.0, device=device).view(4, 5)
print(m.unfold(1, 2, 2).shape, m.unfold(0, 3, 1)[1].cpu())
t = torch.arange(10.0, device=device).requires_grad_()
w = t.unfold(0, 3, 2)
print(w.grad_fn.name())
(w * torch.tensor([1.0, 10.0, 100.0], device=device)).sum().backward()
print(t.grad.cpu())
