# Building masks and covariance-like matrices: trace, diag in both directions,
# diag_embed, diagonal with offsets, triu/tril with diagonal, and their indices.
import torch

device = "tpu"

M = torch.arange(1.0, 17.0, device=device).reshape(4, 4)
print("trace:", torch.trace(M).item(), M.trace().item())
print("diag:", torch.diag(M).tolist(), torch.diag(M, 1).tolist(), torch.diag(M, -2).tolist())
print(torch.diag(torch.tensor([1.0, 2.0, 3.0], device=device)).cpu())
print(torch.diag(torch.tensor([1, 2], device=device), diagonal=1).cpu())
print(M.diagonal().tolist(), M.diagonal(offset=-1).tolist(), torch.diagonal(M, 2).tolist())

batch = torch.arange(8.0, device=device).reshape(2, 4)
emb = torch.diag_embed(batch)
print(emb.shape, emb[1].cpu())
print(torch.diagonal(emb, dim1=-2, dim2=-1).tolist())
print(torch.diagflat(torch.tensor([[1, 2], [3, 4]], device=device)).shape)

print(torch.triu(M).cpu())
print(torch.triu(M, diagonal=1).cpu())
print(M.tril(-1).cpu())
print(torch.tril(torch.ones(3, 5, device=device), diagonal=2).cpu())

# A causal attention mask, in the two usual forms.
T = 4
causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))
print(causal.cpu())
scores = torch.zeros(T, T, device=device).masked_fill(~causal, float("-inf"))
print(scores.softmax(-1).cpu())
print(torch.triu(torch.full((3, 3), float("-inf"), device=device), diagonal=1).cpu())

rows, cols = torch.triu_indices(3, 3)
print(rows.tolist(), cols.tolist())
print(torch.tril_indices(3, 3, offset=-1).cpu())

# Zeroing the diagonal of a similarity matrix, in place.
S = torch.ones(3, 3, device=device)
S.fill_diagonal_(0.0)
print(S.cpu())
eye = torch.eye(3, device=device)
print((S + eye).sum().item(), torch.eye(2, 3, dtype=torch.int64).tolist())
M.triu_(1)
print(M.sum().item())
