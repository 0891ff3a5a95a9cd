# Elementwise arithmetic with broadcasting and type promotion (int64 + float, bool, scalars).
import torch

device = "tpu"

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], device=device)
b = torch.tensor([10.0, 20.0, 30.0], device=device)
c = torch.tensor([[2.0], [-1.0]], device=device)
print((a + b).cpu())
print((a * c).cpu())
print((b - c).cpu(), (b - c).shape)
print((a / b).cpu())
print((2 * a - 1).cpu(), (1 - a).cpu())
print((10 / a).cpu())
i = torch.tensor([1, 2, 3], device=device)
print((i + 0.5).cpu(), (i + 0.5).dtype)
print((i * 2).cpu(), (i * 2).dtype)
print((i + b).cpu(), (i + b).dtype)
m = torch.tensor([True, False, True], device=device)
print((m + i).cpu(), (m + i).dtype)
print((m * b).cpu(), (m * 1.5).dtype)
print((a > 2.5).cpu())
print((a == torch.tensor([1.0, 0.0, 3.0], device=device)).cpu())
print((i >= 2).cpu(), (i != 2).tolist())
print((a.exp() * 0 + a.sqrt()).cpu())
print(torch.log(a).cpu())
print((-a).abs().cpu(), torch.neg(b).cpu())
print(torch.sin(torch.tensor([0.0, 1.0], device=device)).cpu(), torch.cos(torch.tensor([0.0, 1.0], device=device)).cpu())
print((torch.tensor(2.0, device=device) + torch.tensor([1, 2], device=device).float()).cpu())
