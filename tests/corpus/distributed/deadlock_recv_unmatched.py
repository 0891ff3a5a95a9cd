# nproc: 2
# Deadlock: rank 1 waits to receive from rank 0, but rank 0 sends nothing and goes on
# to a barrier. tpu run must name rank 1's recv (src 0, shape, dtype) and rank 0's barrier.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
t = torch.tensor([float(rank)], device=device)
dist.all_reduce(t)
print("before", t.item())
if rank == 0:
    result = t * 2
else:
    result = torch.empty(1, device=device)
    dist.recv(result, src=0)
dist.barrier()
print("unreachable", rank, result.item())
