# torch.cat as one concatenation: dtypes promoted, more parts than one kernel joins,
# empty parts, a transposed view, bools, float16, gradients, a size mismatch, split's gradient.
import torch
device = "tpu"
torch.manual_seed(0)
a = torch.randn(2, 3, device=device)
b = torch.arange(8, device=device).reshape(2, 4)
print(torch.cat([a, b], dim=1).cpu())
print(torch.cat([a, b.float()], 1).dtype, torch.cat([b, b], 0).dtype)
parts = [torch.full((1, 2), float(i), device=device) for i in range(9)]
print(torch.cat(parts).flatten().tolist())
print(torch.cat(parts, dim=-1).shape)
e = torch.empty(0, device=device)
print(torch.cat([e, torch.ones(3, device=device), e]).tolist())
print(torch.cat([torch.zeros(2, 0, device=device), a], dim=1).shape)
t = torch.arange(12.0, device=device).reshape(3, 4).t()
print(torch.cat([t, t[:, :1]], dim=1).cpu())
m = torch.tensor([[True, False]], device=device)
print(torch.cat([m, ~m], dim=0).cpu())
h = torch.randn(2, 2, device=device).half()
print(torch.cat([h, h], 1).dtype, torch.cat([h, h], 1).float().sum().item() == 2 * h.float().sum().item())
x = torch.randn(3, 2, device=device, requires_grad=True)
y = torch.randn(3, 5, device=device, requires_grad=True)
z = torch.cat([x, y * 2, x], dim=1)
(z * torch.arange(9.0, device=device)).sum().backward()
print(z.grad_fn.name(), x.grad.cpu(), y.grad.cpu())
print(torch.cat([a, torch.ones(3, 3, device=device)], dim=0).shape)
try:
    torch.cat([a, torch.ones(3, 4, device=device)], dim=0)
except RuntimeError as err:
    print("RuntimeError:", err)

w = torch.randn(2, 4, 12, device=device, requires_grad=True)
q, k, v = w.split(4, dim=2)
(q * 1 + k.transpose(0, 1).transpose(0, 1) * 2 + v * 3).sum().backward()
print(w.grad[0, 0].cpu())
print(torch.stack([torch.ones(2, device=device), torch.zeros(2, device=device)], dim=1).cpu())
