# nproc: 4
# Uneven shards follow torch.chunk: 10 rows on 4 ranks are 3,3,3,1 and 3 rows leave rank 3 empty.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))

ten = torch.arange(20, dtype=torch.float32, device=device).reshape(10, 2)
d = distribute_tensor(ten, mesh, [Shard(0)])
print("10 rows", tuple(d.shape), "local", tuple(d.to_local().shape), d.to_local()[:, 0].tolist())
print("full equal", torch.equal(d.full_tensor(), ten))
three = torch.arange(6, dtype=torch.float32, device=device).reshape(3, 2)
e = distribute_tensor(three, mesh, [Shard(0)])
print("3 rows", tuple(e.shape), "local", tuple(e.to_local().shape), e.to_local().tolist())
print("3 rows full", e.full_tensor().tolist())
five = distribute_tensor(torch.arange(5, dtype=torch.float32, device=device), mesh, [Shard(0)])
print("5 elements", five.to_local().tolist())
cols = distribute_tensor(torch.arange(14, dtype=torch.float32, device=device).reshape(2, 7), mesh, [Shard(1)])
print("7 columns", tuple(cols.to_local().shape), cols.to_local().tolist())

r = d.redistribute(mesh, [Replicate()])
print("S(0)->R", r.placements, tuple(r.to_local().shape), torch.equal(r.to_local(), ten))
s1 = d.redistribute(mesh, [Shard(1)])
print("S(0)->S(1)", s1.placements, tuple(s1.to_local().shape), s1.to_local().flatten().tolist())
back = r.redistribute(mesh, [Shard(0)])
print("R->S(0)", tuple(back.to_local().shape))
total = (d * 2).sum()
print("sum of uneven", total.placements, total.full_tensor().item())
m = e.mean()
print("mean of 3 rows", m.placements, m.full_tensor().item())
print("relu keeps the uneven local shape", tuple((e - 2).relu().to_local().shape))
dist.destroy_process_group()
