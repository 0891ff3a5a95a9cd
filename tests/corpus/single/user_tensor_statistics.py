# Describing a sample: median (even and odd, along dims), mode, quantiles with
# interpolation modes, var/std with correction, covariance and correlation.
import torch

device = "tpu"
torch.manual_seed(7)

data = torch.tensor([4.0, 1.0, 7.0, 3.0, 9.0, 2.0], device=device)
print("median:", torch.median(data).item(), data.median().item())
print("nanmedian:", torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0], device=device)).item())
odd = torch.tensor([[5.0, 1.0, 3.0], [2.0, 8.0, 6.0]], device=device)
med = odd.median(dim=1)
print(med.values.tolist(), med.indices.tolist())
print(torch.median(odd, dim=0, keepdim=True).values.cpu())

votes = torch.tensor([3, 1, 3, 2, 1, 3], device=device)
print("mode:", torch.mode(votes).values.item(), torch.mode(votes).indices.item())
print(torch.mode(torch.tensor([[1, 2, 2], [4, 4, 1]], device=device), dim=1).values.tolist())

print("q:", torch.quantile(data, 0.5).item(), torch.quantile(data, 0.25).item())
qs = torch.tensor([0.1, 0.5, 0.9], device=device)
print([round(v, 4) for v in torch.quantile(data, qs).tolist()])
for mode in ["linear", "lower", "higher", "nearest", "midpoint"]:
    print(mode, data.quantile(0.4, interpolation=mode).item())
print(torch.quantile(odd, 0.5, dim=1, keepdim=True).cpu())
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0], device=device), 0.5).item())

print("var:", data.var().item(), data.var(correction=0).item(), torch.var(data, unbiased=False).item())
print("std:", round(data.std().item(), 5), round(torch.std(data, correction=2).item(), 5))
print(odd.var(dim=1).tolist(), odd.std(dim=0, keepdim=True).cpu())
vm = torch.var_mean(odd, dim=1)
print(vm[0].tolist(), vm[1].tolist())

# Covariance and correlation of three variables observed 5 times.
obs = torch.randn(3, 5, device=device)
obs[1] = obs[0] * 2 + 0.1
cov = torch.cov(obs)
print(cov.shape, torch.allclose(cov, cov.T))
print(torch.allclose(cov.diagonal(), obs.var(dim=1), atol=1e-6))
corr = torch.corrcoef(obs)
print([round(v, 4) for v in corr[0].tolist()][:2], torch.allclose(corr.diagonal(), torch.ones(3, device=device), atol=1e-6))
print(torch.cov(obs, correction=0).shape, obs.T.cov().shape)
print(data.mean().item(), data.sum().item(), data.prod().item(), data.max().item(), data.min().item())
print(torch.aminmax(data.cpu()), data.aminmax().max.item())
