# Nearest neighbours of query points: pairwise distances by broadcasting and by
# torch.cdist, then the closest points with topk and argmin.
import torch

device = "tpu"
torch.manual_seed(1)

points = torch.randn(6, 2, device=device)
queries = torch.randn(3, 2, device=device)

# Broadcasting by hand: (3, 1, 2) - (1, 6, 2) -> (3, 6, 2).
diff = queries[:, None] - points[None]
print("diff shape:", diff.shape)
d_manual = diff.pow(2).sum(-1).sqrt()
d_cdist = torch.cdist(queries, points)
print(d_cdist.cpu())
print("match:", torch.allclose(d_manual, d_cdist, atol=1e-6))

# Manhattan distance.
d1 = torch.cdist(queries, points, p=1)
print("L1:", torch.allclose(d1, diff.abs().sum(-1)))

# The squared-norm expansion |a|^2 + |b|^2 - 2ab, as used for large batches.
sq = (queries ** 2).sum(1, keepdim=True) + (points ** 2).sum(1) - 2 * queries @ points.T
print("expansion:", torch.allclose(sq.clamp(min=0).sqrt(), d_cdist, atol=1e-5))

nearest = d_cdist.argmin(dim=1)
print("nearest:", nearest.tolist())
vals, idx = torch.topk(d_cdist, k=2, dim=1, largest=False)
print("two nearest:", idx.tolist())
print([round(v, 4) for v in vals.flatten().tolist()])

# Distances within one set: zero diagonal, symmetric.
self_d = torch.cdist(points, points)
print("diag zero:", self_d.diagonal().abs().max().item() < 1e-5)
print("symmetric:", torch.allclose(self_d, self_d.T))

# Batched cdist.
a = torch.randn(2, 4, 3, device=device)
b = torch.randn(2, 5, 3, device=device)
print(torch.cdist(a, b).shape)

# Cosine similarity between queries and points.
cos = torch.nn.functional.cosine_similarity(queries[:, None], points[None], dim=-1)
print(cos.shape, cos.max(dim=1).indices.tolist())
print(torch.dist(queries[0], points[0]).item() - d_cdist[0, 0].item() < 1e-6)
