# nproc: 4
# Sharding propagation of elementwise ops: Shard and Replicate operands, scalars, and what
# happens to Partial under linear and non-linear ops.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
a = torch.arange(16, dtype=torch.float32, device=device).reshape(4, 4) - 6
s0 = distribute_tensor(a, mesh, [Shard(0)])
s1 = distribute_tensor(a, mesh, [Shard(1)])
r = distribute_tensor(a, mesh, [Replicate()])


def show(name, d):
    print(name, d.placements, d.to_local().flatten()[:4].tolist())


show("S(0)+R", s0 + r)
show("R+S(0)", r + s0)
show("S(0)+S(0)", s0 + s0)
show("S(0)*S(1)", s0 * s1)
show("S(0)*2+1", s0 * 2 + 1)
show("1-S(0)", 1 - s0)
show("S(0)**2", s0 ** 2)
show("relu S(0)", s0.relu())
show("R.exp", (r / 10).exp())
show("S(0)>0", s0 > 0)
show("where", torch.where(s0 > 0, s0, r))
p = DTensor.from_local(torch.arange(4, dtype=torch.float32, device=device) - rank, mesh, [Partial()])
q = DTensor.from_local(torch.ones(4, device=device), mesh, [Partial()])
print("p full", p.full_tensor().tolist())
show("P+P", p + q)
show("P-P", p - q)
show("P*2", p * 2)
show("P/2", p / 2)
show("-P", -p)
show("P+1", p + 1)
show("P*P", p * q)
show("relu P", p.relu())
print("relu P full", p.relu().full_tensor().tolist(), "sum of local relus", (p.to_local().relu().sum()).item())
show("abs P", p.abs())
pmax = DTensor.from_local(torch.arange(4, dtype=torch.float32, device=device) - rank, mesh, [Partial("max")])
show("relu P(max)", pmax.relu())
show("P(max)*2", pmax * 2)
show("P(max)+P(max)", pmax + pmax)
rp = DTensor.from_local(torch.ones(4, device=device), mesh, [Replicate()])
show("P+R", p + rp)
show("P*R", p * rp)
dist.destroy_process_group()
