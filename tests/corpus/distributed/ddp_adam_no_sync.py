# nproc: 2
# DDP with Adam and gradient accumulation: no_sync() for all micro-batches but the last,
# so gradients are reduced once per optimizer step.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
torch.manual_seed(3)
model = nn.Sequential(nn.Linear(5, 6), nn.ReLU(), nn.Linear(6, 3)).to(device)
ddp = DDP(model)
opt = torch.optim.Adam(ddp.parameters(), lr=0.01)
torch.manual_seed(50 + rank)
micro = [(torch.randn(4, 5, device=device), torch.randint(0, 3, (4,), device=device)) for _ in range(3)]


def grads_agree():
    g = model[0].weight.grad.clone()
    other = g.clone()
    dist.broadcast(other, src=0)
    flag = torch.tensor([1 if torch.equal(g, other) else 0], device=device)
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())


# DDP decides at forward time whether the backward reduces: no_sync() must wrap the forward.
x, y = micro[0]
with ddp.no_sync():
    F.cross_entropy(ddp(x), y).backward()
print("forward and backward in no_sync, grads agree across ranks:", grads_agree())
opt.zero_grad()
loss = F.cross_entropy(ddp(x), y)
with ddp.no_sync():
    loss.backward()
print("forward outside no_sync, backward inside, grads agree:", grads_agree())

for step in range(3):
    opt.zero_grad()
    total = 0.0
    for i, (x, y) in enumerate(micro):
        if i < len(micro) - 1:
            with ddp.no_sync():
                loss = F.cross_entropy(ddp(x), y) / len(micro)
                loss.backward()
        else:
            loss = F.cross_entropy(ddp(x), y) / len(micro)
            loss.backward()
        total += loss.item()
    print(f"step {step} accumulated loss {total:.4f}, grads agree after sync: {grads_agree()}")
    opt.step()

w = model[2].weight.detach().clone()
w0 = w.clone()
dist.broadcast(w0, src=0)
print("replicas equal:", torch.equal(w, w0))
print("first row", [round(v, 4) for v in w[0].tolist()])
dist.destroy_process_group()
