# nproc: 4
# Matrix products of DTensors: which placement the result has and that its value is right.
import torch
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
a = torch.arange(32, dtype=torch.float32, device=device).reshape(8, 4) / 8
b = torch.arange(12, dtype=torch.float32, device=device).reshape(4, 3) - 5
want = a @ b


def show(name, d):
    ok = torch.allclose(d.full_tensor(), want if d.shape == want.shape else d.full_tensor())
    print(name, d.placements, tuple(d.shape), "local", tuple(d.to_local().shape), "correct", ok)


a_s0 = distribute_tensor(a, mesh, [Shard(0)])
a_s1 = distribute_tensor(a, mesh, [Shard(1)])
a_r = distribute_tensor(a, mesh, [Replicate()])
b_s0 = distribute_tensor(b, mesh, [Shard(0)])
b_s1 = distribute_tensor(b, mesh, [Shard(1)])
b_r = distribute_tensor(b, mesh, [Replicate()])
show("S(0)@R", a_s0 @ b_r)
show("R@S(1)", a_r @ b_s1)
show("S(1)@S(0)", a_s1 @ b_s0)
show("R@R", a_r @ b_r)
show("S(1)@R", a_s1 @ b_r)
show("R@S(0)", a_r @ b_s0)
show("S(0)@S(0)", a_s0 @ b_s0)
show("S(0)@S(1)", a_s0 @ b_s1)
show("mm", torch.mm(a_s0, b_r))
show("matmul", torch.matmul(a_s1, b_s0))
z = a_s1 @ b_s0
print("partial local sums to the product", torch.allclose(z.to_local(), a[:, rank:rank + 1] @ b[rank:rank + 1]))
print("partial full", [round(v, 4) for v in z.full_tensor()[0].tolist()])
print("partial redistributed", z.redistribute(mesh, [Replicate()]).placements, z.redistribute(mesh, [Shard(0)]).placements)
v = distribute_tensor(torch.arange(4, dtype=torch.float32, device=device), mesh, [Shard(0)])
mv = a_s1 @ v
print("matrix @ vector", mv.placements, tuple(mv.shape), [round(x, 4) for x in mv.full_tensor().tolist()])
x = distribute_tensor(torch.arange(48, dtype=torch.float32, device=device).reshape(4, 4, 3), mesh, [Shard(0)])
y = distribute_tensor(torch.ones(4, 3, 5, device=device), mesh, [Replicate()])
bm = torch.bmm(x, y)
print("bmm S(0)@R", bm.placements, tuple(bm.shape), tuple(bm.to_local().shape))
w = distribute_tensor(torch.ones(8, 4, device=device), mesh, [Shard(0)])
bias = distribute_tensor(torch.ones(3, device=device), mesh, [Replicate()])
lin = F.linear(a_s0, distribute_tensor(torch.ones(3, 4, device=device), mesh, [Replicate()]), bias)
print("linear S(0) input", lin.placements, tuple(lin.to_local().shape))
col = F.linear(a_r, w)
print("linear sharded weight", col.placements, tuple(col.to_local().shape))
row = F.linear(a_s1, distribute_tensor(torch.ones(3, 4, device=device), mesh, [Shard(1)]))
print("linear both sharded on the inner dim", row.placements, round(row.full_tensor().sum().item(), 4))
dist.destroy_process_group()
