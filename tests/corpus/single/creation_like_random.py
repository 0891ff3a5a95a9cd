# Seeded random creation (rand, randn, randint, randperm), empty, and the *_like constructors.
import torch

device = "tpu"
torch.manual_seed(3)

r = torch.rand(2, 3, device=device)
print(r.cpu())
n = torch.randn(3, device=device)
print(n.cpu())
print(torch.randint(0, 5, (6,), device=device).cpu())
print(torch.randint(10, (2, 3), device=device).cpu())
print(torch.randperm(6, device=device).cpu())
e = torch.empty(3, 4, device=device)
print(e.shape, e.dtype)
print(torch.empty(2, dtype=torch.int64).shape)
print(torch.zeros_like(r).cpu())
print(torch.ones_like(r).cpu())
print(torch.full_like(r, 7.0).cpu())
print(torch.ones_like(torch.tensor([1, 2, 3])).dtype, torch.zeros_like(r, dtype=torch.int64).cpu())
rl = torch.rand_like(r)
print(rl.cpu(), rl.shape)
nl = torch.randn_like(r)
print(nl.cpu())
print(torch.randn(2, 2, dtype=torch.float32, device=device).cpu())
print(torch.rand(3, device=device).dtype, torch.randint(0, 3, (2,)).dtype)
