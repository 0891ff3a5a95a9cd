# Ranking model scores: topk, sort (stable, descending), argsort, kthvalue and
# msort, and using the indices to reorder other tensors.
import torch

device = "tpu"

scores = torch.tensor([[0.1, 0.7, 0.3, 0.7, 0.05],
                       [0.9, 0.2, 0.4, 0.1, 0.6]], device=device)
names = ["cat", "dog", "bird", "fish", "frog"]

values, indices = torch.topk(scores, 3)
print(values.cpu())
print(indices.cpu())
for row in indices.tolist():
    print([names[i] for i in row])

top = scores.topk(2, dim=0)
print(top.values.cpu(), top.indices.cpu())
print(torch.topk(scores, 2, largest=False, sorted=True).values.cpu())

s = torch.sort(scores, dim=1, descending=True)
print(s.values.cpu())
print(s.indices.cpu())
print(scores.sort(stable=True).indices.cpu())
print(torch.argsort(scores, dim=1).cpu())
print(scores.argsort(dim=0, descending=True).cpu())

# kthvalue: the k-th smallest.
kv = torch.kthvalue(scores, 2, dim=1)
print(kv.values.cpu(), kv.indices.cpu())
print(torch.msort(scores.T).cpu())

# Reordering with the sort indices.
order = scores[1].argsort(descending=True)
print([names[i] for i in order.tolist()])
ids = torch.arange(5, device=device) * 10
print(ids[order].cpu(), torch.gather(scores, 1, s.indices).cpu())

# Integer sort with ties.
ints = torch.tensor([3, 1, 2, 3, 1, 0], device=device)
sv, si = ints.sort(stable=True)
print(sv.tolist(), si.tolist())
print(torch.sort(ints, descending=True, stable=True).indices.tolist())
