# nproc: 4
# Redistribute on a 2x2 mesh: both mesh dimensions change, one at a time or together.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2, 2), mesh_dim_names=("dp", "tp"))
full = torch.arange(32, dtype=torch.float32, device=device).reshape(4, 8)
R, S0, S1 = Replicate(), Shard(0), Shard(1)


def show(name, d):
    print(name, d.placements, tuple(d.to_local().shape), d.to_local().flatten()[:6].tolist())


def start(placements):
    return distribute_tensor(full, mesh, placements)


show("S0,R->R,R", start([S0, R]).redistribute(mesh, [R, R]))
show("R,R->S0,S1", start([R, R]).redistribute(mesh, [S0, S1]))
show("S0,S1->R,R", start([S0, S1]).redistribute(mesh, [R, R]))
show("S0,S1->S1,S0", start([S0, S1]).redistribute(mesh, [S1, S0]))
show("S0,R->R,S0", start([S0, R]).redistribute(mesh, [R, S0]))
show("S0,S0->R,R", start([S0, S0]).redistribute(mesh, [R, R]))
show("S0,S0->S0,R", start([S0, S0]).redistribute(mesh, [S0, R]))
show("R,S1->S0,S1", start([R, S1]).redistribute(mesh, [S0, S1]))
show("R,R->R,R", start([R, R]).redistribute(mesh, [R, R]))
local = torch.ones(4, 8, device=device) * (rank + 1)
pp = DTensor.from_local(local, mesh, [Partial(), Partial()])
show("P,P->R,R", pp.redistribute(mesh, [R, R]))
show("P,P->S0,S1", pp.redistribute(mesh, [S0, S1]))
show("P,R->S0,R", DTensor.from_local(local, mesh, [Partial(), R]).redistribute(mesh, [S0, R]))
show("R,P->R,S1", DTensor.from_local(local, mesh, [R, Partial()]).redistribute(mesh, [R, S1]))
show("R,P->R,R", DTensor.from_local(local, mesh, [R, Partial()]).redistribute(mesh, [R, R]))
try:
    start([S0, R]).redistribute(mesh, [S0, Partial()])
except Exception as e:
    print("S0,R->S0,P", type(e).__name__, str(e))
print("full after S1,S0", start([S0, S1]).redistribute(mesh, [S1, S0]).full_tensor()[3].tolist())
dist.destroy_process_group()
