# nproc: 4
# Every redistribute pair on a 1-D mesh of 4: the placements and local values it leaves,
# and the error for a target that asks for Partial.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
full = torch.arange(32, dtype=torch.float32, device=device).reshape(4, 8)


def show(name, d):
    print(name, d.placements, tuple(d.to_local().shape), d.to_local().flatten()[:8].tolist())


s0 = distribute_tensor(full, mesh, [Shard(0)])
s1 = distribute_tensor(full, mesh, [Shard(1)])
r = distribute_tensor(full, mesh, [Replicate()])
show("S(0)->R", s0.redistribute(mesh, [Replicate()]))
show("R->S(0)", r.redistribute(mesh, [Shard(0)]))
show("R->S(1)", r.redistribute(mesh, [Shard(1)]))
show("S(0)->S(1)", s0.redistribute(mesh, [Shard(1)]))
show("S(1)->S(0)", s1.redistribute(mesh, [Shard(0)]))
show("R->R", r.redistribute(mesh, [Replicate()]))
same = s0.redistribute(mesh, [Shard(0)])
show("S(0)->S(0)", same)
print("same placements returns the same object", same is s0)
p = DTensor.from_local(torch.ones(4, 8, device=device) * (rank + 1), mesh, [Partial()])
show("P->R", p.redistribute(mesh, [Replicate()]))
show("P->S(0)", p.redistribute(mesh, [Shard(0)]))
show("P->S(1)", p.redistribute(mesh, [Shard(1)]))
pmax = DTensor.from_local(torch.arange(4, dtype=torch.float32, device=device) * (rank + 1), mesh, [Partial("max")])
show("P(max)->R", pmax.redistribute(mesh, [Replicate()]))
show("S(0)->P", s0.redistribute(mesh, [Partial()]))
try:
    r.redistribute(mesh, [Partial()])
except Exception as e:
    print("R->P", type(e).__name__, str(e))
try:
    s0.redistribute(mesh)
except Exception as e:
    print("no placements", type(e).__name__, str(e))
show("placements only", s1.redistribute(placements=[Replicate()]))
dist.destroy_process_group()
