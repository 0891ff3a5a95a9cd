# DDP on a v5e 2x2: four ranks, one per chip, each training the same model on
# its own batch. DDP averages the gradients with an all_reduce after backward,
# so the replicas stay equal (see the Torus and Timeline panels).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group()
rank = dist.get_rank()

torch.manual_seed(0)  # the same weights on every rank
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4)).to("tpu")
ddp = DDP(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.1)

torch.manual_seed(100 + rank)  # its own batch on each
x = torch.randn(32, 8, device="tpu")
y = torch.randint(0, 4, (32,), device="tpu")

for step in range(5):
    loss = F.cross_entropy(ddp(x), y)
    opt.zero_grad()
    loss.backward()  # DDP's all_reduce runs here
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")

# Equal replicas: the largest weights across ranks are each rank's own.
w = model[2].weight.detach()
largest = w.clone()
dist.all_reduce(largest, op=dist.ReduceOp.MAX)
print("replicas equal:", torch.equal(largest, w))
dist.destroy_process_group()
