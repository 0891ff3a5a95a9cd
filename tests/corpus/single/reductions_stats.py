# var, std (unbiased and not), cumsum, softmax, log_softmax, logsumexp, any, all along dims.
import torch

device = "tpu"

x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [-1.0, 0.5, 0.0, 2.5]], device=device)
print(x.var().item(), x.std().item())
print(x.var(dim=1).cpu(), x.std(dim=0).cpu())
print(x.var(dim=1, unbiased=False).cpu(), x.std(1, keepdim=True).cpu())
print(x.var(dim=1, correction=0).cpu())
print(x.cumsum(dim=1).cpu())
print(torch.cumsum(x, 0).cpu())
print(torch.tensor([1, 2, 3, 4], device=device).cumsum(0).cpu())
print(torch.softmax(x, dim=1).cpu())
print(x.softmax(0).cpu())
print(torch.log_softmax(x, dim=-1).cpu())
print(x.log_softmax(dim=0).sum().item())
print(torch.logsumexp(x, dim=1).cpu(), x.logsumexp(0, keepdim=True).shape)
big = torch.tensor([1000.0, 1000.0, 999.0], device=device)
print(big.logsumexp(0).item(), big.softmax(0).cpu())
b = torch.tensor([[True, False, True], [False, False, False]], device=device)
print(b.any().item(), b.all().item())
print(b.any(dim=1).cpu(), b.all(dim=0).cpu(), b.any(0).cpu())
print((x > 0).all(dim=1).cpu(), (x > 0).any(dim=0).cpu())
print(torch.any(x < -0.5).item(), torch.all(x > -2).item())
print(torch.softmax(torch.zeros(2, 3, device=device), dim=1).cpu())
