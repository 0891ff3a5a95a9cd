# nproc: 4
# Deadlock: all ranks call all_reduce on a 3-element tensor, but rank 3's is int64 while
# the others' are float32. tpu run must stop and name each rank's dtype and line.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
counts = torch.tensor([rank, 1, 2], device=device)
if rank == 3:
    stats = counts
else:
    stats = counts.float()
print("reducing", stats.dtype)
dist.all_reduce(stats)
print("unreachable", rank, stats.tolist())
