# torch.where, masked_fill, triu and tril with diagonal offsets, clamp.
import torch

device = "tpu"

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], device=device)
y = torch.full((2, 3), 10.0, device=device)
print(torch.where(x > 0, x, y).cpu())
print(torch.where(x > 0, x, 0.0).cpu())
print(torch.where(x < 0, torch.tensor(-1.0, device=device), torch.tensor(1.0, device=device)).cpu())
print(x.where(x.abs() < 4, torch.zeros_like(x)).cpu())
print(torch.where(torch.tensor([True, False], device=device)[:, None], x, y).cpu())
m = torch.tensor([[False, True, False], [True, False, False]], device=device)
print(x.masked_fill(m, 0.0).cpu())
print(x.masked_fill(x < 0, float("-inf")).cpu())
print(x.masked_fill(torch.tensor([True, False, True], device=device), -7.5).cpu())
s = torch.ones(4, 4, device=device)
print(torch.triu(s).cpu())
print(torch.tril(s).cpu())
print(torch.triu(s, diagonal=1).cpu())
print(s.tril(-1).cpu(), s.triu(2).sum().item())
a = torch.arange(1.0, 13.0, device=device).reshape(3, 4)
print(a.triu().cpu(), a.tril(1).cpu())
causal = torch.triu(torch.ones(3, 3, device=device), diagonal=1).bool()
scores = torch.arange(9.0, device=device).reshape(3, 3)
print(scores.masked_fill(causal, float("-inf")).softmax(-1).cpu())
print(torch.clamp(x, -3, 3).cpu(), x.clamp(min=-1).cpu())
print(torch.where(m, x.clamp(max=0.0), x.clamp(min=2.0)).cpu())
