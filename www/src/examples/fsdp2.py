# nproc: 4
# FSDP2 on a v5e 2x2: fully_shard cuts every parameter along dim 0 over the
# four chips. Each layer all-gathers its parameters before its forward (and
# again before its backward, as it was resharded), and reduce-scatters its
# gradients after; the optimiser steps only each chip's shard.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,), mesh_dim_names=("fsdp",))

torch.manual_seed(0)  # the same initial weights on every rank
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8)).to(device)
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
w = model[0].weight
print(type(model).__name__, w.placements, tuple(w.shape), "local", tuple(w.to_local().shape))
opt = torch.optim.AdamW(model.parameters(), lr=0.01)

torch.manual_seed(100 + rank)  # its own batch on each rank
x = torch.randn(8, 16, device=device)
for step in range(3):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()  # all-gathers again, then reduce-scatters the gradients
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
print("grad", model[0].weight.grad.placements, tuple(model[0].weight.grad.to_local().shape))
dist.destroy_process_group()
