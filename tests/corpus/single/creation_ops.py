# Deterministic creation ops: tensor, zeros, ones, full, arange, linspace, eye with dtype= and device=.
import torch

device = "tpu"

a = torch.tensor([[1.0, 2.5], [-3.0, 4.0]], device=device)
print(a.cpu(), a.dtype, a.shape)
print(torch.tensor([1, 2, 3], device=device).cpu(), torch.tensor([True, False], device=device).dtype)
print(torch.tensor(3.5, device=device).item(), torch.tensor(7, device=device).dim())
print(torch.zeros(2, 3, device=device).cpu())
print(torch.zeros((2, 2), dtype=torch.int64, device=device).cpu())
print(torch.ones(3, device=device).cpu(), torch.ones(2, dtype=torch.bool).tolist())
print(torch.full((2, 3), 1.5, device=device).cpu())
print(torch.full((3,), 4, device=device).dtype, torch.full((2,), 2.0, dtype=torch.bfloat16).dtype)
print(torch.arange(5, device=device).cpu())
print(torch.arange(2, 11, 3, device=device).cpu())
print(torch.arange(0.0, 1.0, 0.25, device=device).cpu())
print(torch.arange(6, dtype=torch.float32, device=device).reshape(2, 3).cpu())
print(torch.linspace(0, 1, 5, device=device).cpu())
print(torch.linspace(-2.0, 2.0, steps=9, device=device).tolist())
print(torch.eye(3, device=device).cpu())
print(torch.eye(2, 4, device=device).cpu())
print(torch.eye(3, dtype=torch.int64).sum().item())
z = torch.zeros(4, device=device)
print(z.device.type == device, z.shape, z.numel())
