# Rank 0 takes a branch the others do not: it waits in all_reduce, they wait
# in broadcast. Real PyTorch hangs; here the run stops and marks each line.
import torch
import torch.distributed as dist

dist.init_process_group()
rank = dist.get_rank()
t = torch.ones(4, device="tpu") * rank
dist.all_reduce(t)
print("sum of the ranks:", t.tolist())
if rank == 0:
    dist.all_reduce(t)  # only rank 0 calls this...
else:
    dist.broadcast(t, src=0)  # ...while the others call this
print("never printed")
