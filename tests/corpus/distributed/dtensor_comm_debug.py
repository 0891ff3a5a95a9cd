# nproc: 4
# CommDebugMode counts the collectives DTensor issues for each redistribute and op.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
grid = init_device_mesh(device, (2, 2))
a = torch.arange(64, dtype=torch.float32, device=device).reshape(8, 8)


def count(name, fn):
    comm = CommDebugMode()
    with comm:
        out = fn()
    counts = {str(k): v for k, v in comm.get_comm_counts().items()}
    if rank == 0:
        print(name, out.placements, "total", comm.get_total_counts(), counts)


s0 = distribute_tensor(a, mesh, [Shard(0)])
s1 = distribute_tensor(a, mesh, [Shard(1)])
r = distribute_tensor(a, mesh, [Replicate()])
p = DTensor.from_local(torch.ones(8, 8, device=device), mesh, [Partial()])
count("S(0)->R", lambda: s0.redistribute(mesh, [Replicate()]))
count("R->S(0)", lambda: r.redistribute(mesh, [Shard(0)]))
count("S(0)->S(1)", lambda: s0.redistribute(mesh, [Shard(1)]))
count("P->R", lambda: p.redistribute(mesh, [Replicate()]))
count("P->S(0)", lambda: p.redistribute(mesh, [Shard(0)]))
count("S(0)->S(0)", lambda: s0.redistribute(mesh, [Shard(0)]))
count("S(0)+S(1)", lambda: s0 + s1)
count("relu of P", lambda: p.relu())
count("P*2", lambda: p * 2)
count("S(1)@S(0)", lambda: s1 @ s0)
count("R@S(1)", lambda: r @ s1)
count("softmax over the sharded dim", lambda: s0.softmax(dim=0))
g = distribute_tensor(a, grid, [Shard(0), Shard(1)])
count("2-D S,S->R,R", lambda: g.redistribute(grid, [Replicate(), Replicate()]))
count("2-D S,S->S,R", lambda: g.redistribute(grid, [Shard(0), Replicate()]))
pp = DTensor.from_local(torch.ones(8, 8, device=device), grid, [Partial(), Partial()])
count("2-D P,P->R,R", lambda: pp.redistribute(grid, [Replicate(), Replicate()]))
count("2-D P,P->S,S", lambda: pp.redistribute(grid, [Shard(0), Shard(1)]))
comm = CommDebugMode()
with comm:
    s0.full_tensor()
print("full_tensor", comm.get_total_counts())
dist.destroy_process_group()
