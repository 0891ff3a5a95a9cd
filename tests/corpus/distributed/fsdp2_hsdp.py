# nproc: 4
# HSDP: a 2x2 mesh (replicate, shard); parameters are (Replicate(), Shard(dim=0)), the two
# replicas stay equal while each rank trains on its own data.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

device = "tpu"


def shown(x):
    # What a DeviceMesh prints names its device type, which is "tpu" here and
    # "cpu" in the oracle's run of this file.
    return str(x).replace(repr(device), "'<device>'")
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2, 2), mesh_dim_names=("replicate", "shard"))
print("coordinate", mesh.get_coordinate())
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.Linear(8, 2)).to(device)
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh)
fully_shard(model, mesh=mesh)
w = model[0].weight
print(type(w).__name__, w.placements, tuple(w.shape), "local", tuple(w.to_local().shape), shown(w.device_mesh))
print("bias", model[2].bias.placements, tuple(model[2].bias.to_local().shape))
opt = torch.optim.AdamW(model.parameters(), lr=0.02)
torch.manual_seed(10 + rank)
x = torch.randn(4, 6, device=device)
for step in range(3):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("step", step, round(loss.item(), 4))
g = model[0].weight.grad
print("grad", g.placements, tuple(g.to_local().shape))
local = model[0].weight.to_local().detach()
other = local.clone()
replicas = mesh.get_group("replicate")
dist.broadcast(other, src=dist.get_global_rank(replicas, 0), group=replicas)
print("replicas agree", torch.equal(local, other))
full = model[2].weight.full_tensor()
print("full", tuple(full.shape), round(full.sum().item(), 4))
torch.manual_seed(99)
probe = torch.randn(2, 6, device=device)
print("same output on every rank", [round(v, 4) for v in model(probe).flatten().tolist()])
dist.destroy_process_group()
