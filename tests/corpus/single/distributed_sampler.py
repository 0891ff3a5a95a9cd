# torch.utils.data.distributed.DistributedSampler, each rank's share of a
# dataset (given num_replicas and rank, so one process can show them all):
# shuffled by seed + epoch and padded to a multiple of the ranks, or cut with
# drop_last; set_epoch reshuffles; a DataLoader batches a rank's share.
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

device = "tpu"
data = TensorDataset(torch.arange(10.0, device=device), torch.arange(10, device=device))
for rank in range(3):
    s = DistributedSampler(data, num_replicas=3, rank=rank)
    print(rank, len(s), list(s))
for rank in range(3):
    s = DistributedSampler(data, num_replicas=3, rank=rank, shuffle=False, drop_last=True)
    print(rank, len(s), list(s))
s = DistributedSampler(data, num_replicas=4, rank=1, seed=7)
for epoch in range(3):
    s.set_epoch(epoch)
    print(epoch, list(s))
loader = DataLoader(data, batch_size=2, sampler=DistributedSampler(data, num_replicas=2, rank=0))
print([b[1].tolist() for b in loader])
print(list(DistributedSampler(list(range(3)), num_replicas=5, rank=4)))
try:
    DistributedSampler(data, num_replicas=2, rank=2)
except ValueError as e:
    print("ValueError:", e)
