# Elementwise comparisons into bool tensors, with broadcasting and Python numbers.
import torch

device = "tpu"
torch.manual_seed(5)
x = torch.randn(3, 4, device=device)
print((x > 0).cpu())
print((x <= 0.5).cpu(), (0.5 < x).cpu(), sep="\n")
row = torch.tensor([0.0, 1.0, -1.0, 2.0], device=device)
print((x >= row).cpu())
print((x == x).cpu().sum().item(), (x != x).sum().item())
a = torch.tensor([1, 2, 3])
print(a == 2, a > 1.5, 2 >= a, a != torch.tensor([1, 0, 3]))
print((a > 1).long().sum(), (x > 0).float().sum().item(), torch.tensor([1.0, float("nan")]) == torch.tensor([1.0, float("nan")]))
