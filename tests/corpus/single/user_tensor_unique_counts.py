# Summarising token ids and readings: unique with counts and inverse indices,
# bincount with weights, histc, and unique_consecutive.
import torch

device = "tpu"

tokens = torch.tensor([5, 3, 5, 7, 3, 3, 9, 5], device=device)
u = torch.unique(tokens)
print(u.cpu())
u, counts = torch.unique(tokens, return_counts=True)
print(u.tolist(), counts.tolist())
u, inverse = torch.unique(tokens, return_inverse=True)
print(inverse.tolist(), torch.equal(u[inverse], tokens))
u, inverse, counts = tokens.unique(sorted=True, return_inverse=True, return_counts=True)
print("most common:", u[counts.argmax()].item(), "x", counts.max().item())

# Unique rows of a matrix.
pairs = torch.tensor([[1, 2], [3, 4], [1, 2], [0, 9]], device=device)
print(torch.unique(pairs, dim=0).cpu())

# bincount with weights, as a per-bucket sum.
buckets = torch.tensor([0, 1, 1, 3, 0], device=device)
weights = torch.tensor([0.5, 1.0, 2.0, 4.0, 0.25], device=device)
print(torch.bincount(buckets).tolist())
print(torch.bincount(buckets, weights=weights).cpu())

# Histogram of readings.
torch.manual_seed(3)
readings = torch.rand(100, device=device) * 10
hist = torch.histc(readings, bins=5, min=0, max=10)
print(hist.cpu(), hist.sum().item())
print(torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0], device=device), bins=4).cpu())

# Runs of repeated values.
runs = torch.tensor([1, 1, 2, 2, 2, 3, 1, 1], device=device)
vals, lens = torch.unique_consecutive(runs, return_counts=True)
print(vals.tolist(), lens.tolist())
print(torch.unique(torch.tensor([2.5, -1.0, 2.5, 0.0], device=device)).cpu())
