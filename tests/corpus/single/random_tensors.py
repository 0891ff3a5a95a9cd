# Seeded random tensors: the same values on the tpu device as PyTorch's CPU stream.
import torch

device = "tpu"
torch.manual_seed(0)
print(torch.rand(5, device=device).cpu())
print(torch.randn(5, device=device).cpu())
print(torch.randn(3, 4, device=device).cpu())
print(torch.initial_seed())
torch.manual_seed(7)
x = torch.rand(2, 3)
print(x)
print(round(torch.randn(20).sum().item(), 4))
print(torch.randn(2, 17, device=device).sum().item() != 0.0)
y = torch.randn(4, 4, device=device)
print(y.shape, (y * 0).tolist()[0])
torch.manual_seed(7)
print(torch.rand(2, 3).tolist() == x.tolist())
