# nproc: 4
# DTensor.from_local and distribute_tensor: what the global shape is made of, what run_check
# does, explicit shape/stride, and whose data distribute_tensor keeps when ranks disagree.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))

local = torch.full((2, 3), float(rank), device=device)
a = DTensor.from_local(local, mesh, [Shard(0)])
print("S(0)", tuple(a.shape), a.stride(), a.full_tensor()[:, 0].tolist())
b = DTensor.from_local(local, mesh, [Shard(1)])
print("S(1)", tuple(b.shape), b.stride(), b.full_tensor()[0].tolist())
c = DTensor.from_local(local, mesh, [Replicate()])
print("R keeps each rank's own data", c.to_local()[0].tolist(), "full", c.full_tensor()[0].tolist())
copy = local.clone()
c2 = DTensor.from_local(copy, mesh, [Replicate()], run_check=True)
print("R run_check=True broadcasts rank 0", c2.to_local()[0].tolist(), "into the input too", copy[0].tolist())
p = DTensor.from_local(local, mesh, [Partial()])
print("P sum", tuple(p.shape), p.full_tensor()[0].tolist())
pm = DTensor.from_local(local, mesh, [Partial("max")])
print("P max", pm.full_tensor()[0].tolist())
print("shares storage", a.to_local().data_ptr() == local.data_ptr(), "default placements", DTensor.from_local(local, mesh).placements)

rows = 3 if rank < 3 else 1
uneven = torch.ones(rows, 2, device=device) * rank
u = DTensor.from_local(uneven, mesh, [Shard(0)], shape=torch.Size([10, 2]), stride=(2, 1))
print("explicit shape", tuple(u.shape), u.stride(), "local", tuple(u.to_local().shape))
print("uneven full", u.full_tensor()[:, 0].tolist())
w = DTensor.from_local(uneven, mesh, [Shard(0)])
print("without shape the global shape assumes even shards", tuple(w.shape))



# distribute_tensor keeps rank 0's data; the other ranks' tensors only give the shape.
def mine():
    return torch.arange(8, dtype=torch.float32, device=device).reshape(4, 2) + 100 * rank


d = distribute_tensor(mine(), mesh, [Shard(0)])
print("distribute S(0)", d.to_local().tolist())
f = distribute_tensor(mine(), mesh, [Shard(0)], src_data_rank=2)
print("src_data_rank=2", f.to_local().tolist())
g = distribute_tensor(mine(), mesh, [Shard(0)], src_data_rank=None)
print("src_data_rank=None keeps local data", g.to_local().tolist())
source = mine()
e = distribute_tensor(source, mesh, [Replicate()], src_data_rank=0)
print("distribute R", e.to_local()[3].tolist(), "the input was overwritten", source[3].tolist())
dist.destroy_process_group()
