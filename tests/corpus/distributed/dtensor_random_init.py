# nproc: 2
# Initialising sharded parameters, as FSDP2's recipe does after
# fully_shard: nn.init's normal_, uniform_, trunc_normal_ and kaiming on
# DTensors, reset_parameters on sharded modules, and DTensor.normal_: on a
# CPU mesh each rank fills its own block from its own generator.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))
torch.manual_seed(0)
w = distribute_tensor(torch.zeros(4, 3, device=device), mesh, [Shard(0)])
nn.init.normal_(w)
print(rank, w.placements, [[round(v, 4) for v in row] for row in w.to_local().tolist()])
nn.init.uniform_(w, -1, 1)
print(rank, [[round(v, 4) for v in row] for row in w.to_local().tolist()], torch.rand(1).item() > 0)
r = distribute_tensor(torch.zeros(2, 2, device=device), mesh, [Replicate()])
r.normal_(mean=1.0, std=0.5)
print(rank, [[round(v, 4) for v in row] for row in r.to_local().tolist()])
nn.init.trunc_normal_(w, std=0.02)
print(rank, round(w.to_local().abs().max().item(), 4) <= 0.04, tuple(w.to_local().shape))

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2)).to(device)
fully_shard(model[0], mesh=mesh)
fully_shard(model, mesh=mesh)
torch.manual_seed(2)
for m in model:
    if isinstance(m, nn.Linear):
        m.reset_parameters()
print(rank, type(model[0].weight).__name__, [round(v, 4) for v in model[0].weight.to_local().reshape(-1).tolist()[:6]])
nn.init.kaiming_normal_(model[2].weight)
print(rank, [round(v, 4) for v in model[2].weight.to_local().reshape(-1).tolist()])
out = model(torch.ones(3, 4, device=device))
print(rank, out.shape, round(out.sum().item(), 4))
dist.destroy_process_group()
