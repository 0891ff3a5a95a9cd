# nproc: 4
# Deadlock: even ranks reach all_gather_into_tensor while odd ranks reach reduce_scatter_tensor.
# Real PyTorch hangs; tpu run must stop and name each rank's collective and line.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
x = torch.ones(2, device=device) * rank
dist.all_reduce(x)
print("sum", x.tolist())
if rank % 2 == 0:
    out = torch.empty(world * 2, device=device)
    dist.all_gather_into_tensor(out, x)
else:
    out = torch.empty(1, device=device)
    dist.reduce_scatter_tensor(out, torch.ones(world, device=device))
print("unreachable", rank)
