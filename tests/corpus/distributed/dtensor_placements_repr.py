# nproc: 2
# Placements and DTensor: reprs, str, equality, and the attributes a DTensor answers.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))
if rank == 0:
    for p in (Shard(0), Shard(1), Replicate(), Partial(), Partial("max"), Partial("avg")):
        print(repr(p), str(p), f"{p}", [p])
    print("equal", Shard(0) == Shard(0), Shard(0) == Shard(1), Shard(0) == Replicate(), Replicate() == Replicate())
    print("partial equal", Partial() == Partial("sum"), Partial() == Partial("max"), Partial().reduce_op, Partial("max").reduce_op)
    print("shard dim", Shard(1).dim, "hash equal", hash(Shard(1)) == hash(Shard(1)), "in set", len({Shard(0), Shard(0), Replicate()}))
    print("is_shard", Shard(0).is_shard(), Shard(0).is_shard(0), Shard(0).is_shard(1), Replicate().is_shard(),
          "is_replicate", Replicate().is_replicate(), "is_partial", Partial().is_partial(), Shard(0).is_partial())

x = torch.arange(6, dtype=torch.float32, device=device).reshape(2, 3)
d = distribute_tensor(x, mesh, [Shard(0)])
print(d)
print("placements", d.placements, type(d.placements).__name__)
print("mesh", d.device_mesh, d.device_mesh is mesh)
print("shape", d.shape, d.size(), d.size(1), tuple(d.shape), d.dim(), d.ndim, d.numel())
print("dtype", d.dtype, "requires_grad", d.requires_grad, "type", type(d).__name__, isinstance(d, torch.Tensor))
local = d.to_local()
print("to_local", type(local).__name__, local.tolist(), tuple(local.shape))
print("full_tensor", type(d.full_tensor()).__name__, d.full_tensor().tolist())
r = distribute_tensor(x, mesh, [Replicate()])
print(r)
s = d.sum()
print(s)
print("scalar sum", s.placements, s.shape, s.to_local().item(), s.full_tensor().item())
i = distribute_tensor(torch.tensor([[1, 2], [3, 4]], device=device), mesh, [Shard(1)])
print(i)
print("int dtype", i.dtype, i.to_local().tolist())
dist.destroy_process_group()
