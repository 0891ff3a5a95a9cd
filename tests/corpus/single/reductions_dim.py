# Reductions sum, mean, max, min, argmax, argmin, prod with dim= and keepdim=; .values/.indices.
import torch

device = "tpu"

x = torch.tensor([[3.0, -1.0, 4.0, 1.5], [2.0, 7.0, -5.0, 0.5], [6.0, 2.5, 0.5, -2.0]], device=device)
print(x.sum().item(), x.mean().item(), x.max().item(), x.min().item())
print(x.sum(dim=0).cpu(), x.sum(1).cpu())
print(x.sum(dim=1, keepdim=True).cpu(), x.sum(dim=1, keepdim=True).shape)
print(x.mean(0).cpu(), x.mean(dim=-1, keepdim=True).shape)
print(x.sum(dim=(0, 1)).item(), x.mean((0, 1)).item())
mx = x.max(dim=1)
print(mx.values.cpu(), mx.indices.cpu())
mn = x.min(dim=0)
print(mn.values.cpu(), mn.indices.cpu())
vals, idx = x.max(dim=0, keepdim=True)
print(vals.cpu(), idx.cpu(), idx.dtype)
print(x.argmax().item(), x.argmin().item())
print(x.argmax(dim=1).cpu(), x.argmin(dim=1, keepdim=True).cpu())
print(torch.argmax(x, dim=0).cpu())
print(x.prod().item(), x.prod(dim=1).cpu())
p = torch.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
print(p.prod(0).cpu(), p.prod(1, keepdim=True).cpu())
i = torch.tensor([[1, 2, 3], [4, 5, 6]], device=device)
print(i.sum().item(), i.sum(0).cpu(), i.sum(0).dtype, i.max(1).values.cpu())
print(i.float().mean(1).cpu(), i.prod().item())
print(torch.sum(x, 0).shape, torch.max(x).item(), torch.min(x, 1)[0].cpu())
