# A deadlock real PyTorch would hang on: rank 0 takes a branch the other ranks
# do not, so it waits in all_reduce while ranks 1-3 wait in broadcast. Here the
# run stops instead, names what each rank waits in, and marks its line.
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
