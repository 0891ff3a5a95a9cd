# Standardising a small tabular data set before training: per-feature mean and
# std with keepdim, min-max scaling, and checking the result column by column.
import torch

device = "tpu"
torch.manual_seed(0)

# 8 samples, 3 features on very different scales.
raw = torch.randn(8, 3, device=device) * torch.tensor([1.0, 50.0, 0.01], device=device) + torch.tensor([0.0, 200.0, 1.0], device=device)
print("raw shape:", tuple(raw.shape))

mean = raw.mean(dim=0, keepdim=True)
std = raw.std(dim=0, keepdim=True)
print("mean keepdim shape:", mean.shape)
standardised = (raw - mean) / std
print("standardised means:", [round(v, 4) for v in standardised.mean(0).tolist()])
print("standardised stds:", [round(v, 4) for v in standardised.std(0).tolist()])

# Population std (correction=0) against the sample std.
pop_std = raw.std(dim=0, correction=0)
print("population / sample:", (pop_std / std.squeeze(0)).cpu())
print("var unbiased=False:", torch.var(raw[:, 0], unbiased=False).item())

# Min-max scaling into [0, 1].
lo = raw.min(dim=0, keepdim=True).values
hi = raw.max(dim=0, keepdim=True).values
scaled = (raw - lo) / (hi - lo)
print("scaled range:", scaled.amin(0).tolist(), scaled.amax(0).tolist())
print(scaled[:3].cpu())

# Row-wise L2 normalisation, as for embeddings.
unit = raw / raw.norm(dim=1, keepdim=True).clamp_min(1e-12)
print("row norms:", unit.norm(dim=1).cpu())
print(torch.nn.functional.normalize(raw, dim=1)[0].cpu())

# Per-sample standardisation over the feature axis, in place.
rows = raw.clone()
rows.sub_(rows.mean(dim=1, keepdim=True)).div_(rows.std(dim=1, keepdim=True))
print("row means after:", rows.mean(1).abs().max().item() < 1e-5)

# The same in float64, which keeps more digits.
raw64 = raw.double()
z64 = (raw64 - raw64.mean(0)) / raw64.std(0)
print(z64.dtype, z64.sum(0).abs().max().item() < 1e-10)
print(torch.std_mean(raw.cpu(), dim=0))
