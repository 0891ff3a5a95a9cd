# nproc: 4
# Gradients of DTensors: a sharded weight, a loss through matmul and full_tensor or
# redistribute, and the type, placements and local values of the gradient.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
w_full = torch.arange(24, dtype=torch.float32, device=device).reshape(8, 3) / 10
x_full = torch.arange(6, dtype=torch.float32, device=device).reshape(2, 3) - 2

w = distribute_tensor(w_full, mesh, [Shard(0)]).requires_grad_()
print("leaf", w.is_leaf, w.requires_grad, w.grad)
x = distribute_tensor(x_full, mesh, [Replicate()])
y = x @ w.t()
print("y", y.placements, tuple(y.shape), y.requires_grad, type(y.grad_fn).__name__)
loss = y.full_tensor().pow(2).sum()
print("loss", type(loss).__name__, round(loss.item(), 4))
loss.backward()
g = w.grad
print("grad", type(g).__name__, g.placements, tuple(g.shape), "local", tuple(g.to_local().shape))
print("grad local", [[round(v, 4) for v in row] for row in g.to_local().tolist()])
ref = w_full.clone().requires_grad_()
(x_full @ ref.t()).pow(2).sum().backward()
print("matches plain autograd", torch.allclose(g.full_tensor(), ref.grad))

p = nn.Parameter(distribute_tensor(w_full, mesh, [Shard(0)]))
print("parameter of a DTensor", type(p).__name__, isinstance(p, nn.Parameter), isinstance(p, DTensor), p.placements, p.requires_grad)
s = (p * p).sum()
print("sum is", s.placements)
s.full_tensor().backward()
print("grad of sum(p*p)", p.grad.placements, [round(v, 4) for v in p.grad.to_local().flatten().tolist()])

q = nn.Parameter(distribute_tensor(w_full, mesh, [Shard(0)]))
r = q.redistribute(mesh, [Replicate()])
out = (r.to_local() * torch.arange(3, dtype=torch.float32, device=device)).sum()
out.backward()
print("grad through redistribute", q.grad.placements, q.grad.to_local().tolist())
loc = q.to_local()
print("to_local keeps the graph", loc.requires_grad, type(loc.grad_fn).__name__ if loc.grad_fn else None)
h = DTensor.from_local(torch.ones(2, device=device, requires_grad=True), mesh, [Shard(0)])
print("from_local of a leaf", h.requires_grad, h.is_leaf)
dist.destroy_process_group()
