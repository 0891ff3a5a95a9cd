# nproc: 2
# Deadlock: both ranks call all_reduce, but with tensors of different shapes.
# Real PyTorch (gloo) hangs or fails in the transport; tpu run must stop and name both
# ranks' all_reduce with its shape and dtype, and its line.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
torch.manual_seed(0)
w = torch.randn(4, 3, device=device)
dist.broadcast(w, src=0)
print("weights in sync", round(w.sum().item(), 4))
if rank == 0:
    grad = torch.ones(4, 3, device=device)
else:
    grad = torch.ones(3, 4, 2, device=device)
dist.all_reduce(grad)
print("unreachable", rank, grad.shape)
