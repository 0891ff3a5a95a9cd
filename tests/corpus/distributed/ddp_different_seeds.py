# nproc: 8
# Every rank builds its model from a different seed; wrapping it in DDP broadcasts rank 0's
# parameters, so training starts (and stays) identical everywhere. AdamW updates.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
torch.manual_seed(rank)
model = nn.Linear(3, 2).to(device)
print("bias before wrapping", [round(v, 4) for v in model.bias.tolist()])
ddp = DDP(model)
print("bias after wrapping ", [round(v, 4) for v in model.bias.tolist()])

opt = torch.optim.AdamW(ddp.parameters(), lr=0.05, weight_decay=0.01)
x = torch.randn(6, 3, device=device)
target = torch.randint(0, 2, (6,), device=device)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(ddp(x), target)
    loss.backward()
    opt.step()
    if rank in (0, 7):
        print(f"step {step} loss {loss.item():.4f}")

lo = model.weight.detach().clone()
hi = lo.clone()
dist.all_reduce(lo, op=dist.ReduceOp.MIN)
dist.all_reduce(hi, op=dist.ReduceOp.MAX)
print("replicas equal:", torch.equal(lo, hi))
if rank == 0:
    print("weight", [[round(v, 4) for v in row] for row in model.weight.tolist()])
dist.destroy_process_group()
