# nproc: 4
# Gradients through the redistributions whose backward is a collective:
# Replicate to Shard (backward all-gathers), Shard(0) to Shard(1), Partial to
# Shard (the gradient goes back as Replicate), on a 1-D and a 2-D mesh, with
# the collectives CommDebugMode counts in backward.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
base = torch.arange(32, dtype=torch.float32, device=device).reshape(8, 4) / 10


def rows(t):
    return [[round(v, 4) for v in row] for row in t.tolist()]


r = distribute_tensor(base, mesh, [Replicate()]).requires_grad_()
s = r.redistribute(mesh, [Shard(0)])
print("R->S", s.placements, tuple(s.to_local().shape), s.requires_grad)
loss = (s * s).sum().full_tensor()
with CommDebugMode() as comm:
    loss.backward()
print("backward collectives", comm.get_total_counts())
print("r.grad", r.grad.placements, tuple(r.grad.to_local().shape), rows(r.grad.to_local()[::3]))

q = distribute_tensor(base, mesh, [Shard(0)]).requires_grad_()
t = q.redistribute(mesh, [Shard(1)])
print("S(0)->S(1)", t.placements, tuple(t.to_local().shape))
coef = distribute_tensor(torch.arange(32, dtype=torch.float32, device=device).reshape(8, 4), mesh, [Shard(1)])
(t * coef).sum().full_tensor().backward()
print("q.grad", q.grad.placements, rows(q.grad.to_local()))

x = (torch.ones(8, 4, device=device) * (rank + 1)).requires_grad_()
p = DTensor.from_local(x, mesh, [Partial()])
u = p.redistribute(mesh, [Shard(0)])
print("P->S", u.placements, rows(u.to_local()))
(u * u).sum().full_tensor().backward()
print("x.grad", rows(x.grad[:2]))

mesh2 = init_device_mesh(device, (2, 2), mesh_dim_names=("dp", "tp"))
a = distribute_tensor(base, mesh2, [Shard(0), Replicate()]).requires_grad_()
b = a.redistribute(mesh2, [Replicate(), Shard(1)])
print("2-D", b.placements, tuple(b.to_local().shape))
(b * b * 0.5).sum().full_tensor().backward()
print("a.grad", a.grad.placements, rows(a.grad.to_local()[:2]))
dist.destroy_process_group()
