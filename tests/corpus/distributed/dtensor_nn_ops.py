# nproc: 2
# softmax, layer_norm and linear on DTensors sharded along the batch dim, and what happens
# when the normalised dim is the sharded one.
import torch
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))
torch.manual_seed(0)
x = torch.randn(4, 6, device=device)
w = torch.randn(3, 6, device=device)
b = torch.randn(3, device=device)
xs = distribute_tensor(x, mesh, [Shard(0)])
xc = distribute_tensor(x, mesh, [Shard(1)])


def show(name, d, want):
    print(name, d.placements, tuple(d.to_local().shape), "matches", torch.allclose(d.full_tensor(), want, atol=1e-5))


show("softmax(dim=1) of S(0)", xs.softmax(dim=1), x.softmax(dim=1))
show("F.softmax(dim=-1) of S(0)", F.softmax(xs, dim=-1), F.softmax(x, dim=-1))
show("softmax(dim=0) of S(0)", xs.softmax(dim=0), x.softmax(dim=0))
show("softmax(dim=1) of S(1)", xc.softmax(dim=1), x.softmax(dim=1))
show("log_softmax of S(0)", F.log_softmax(xs, dim=1), F.log_softmax(x, dim=1))
show("layer_norm of S(0)", F.layer_norm(xs, (6,)), F.layer_norm(x, (6,)))
show("layer_norm of S(1)", F.layer_norm(xc, (6,)), F.layer_norm(x, (6,)))
wr = distribute_tensor(w, mesh, [Replicate()])
br = distribute_tensor(b, mesh, [Replicate()])
show("linear S(0), R, R", F.linear(xs, wr, br), F.linear(x, w, b))
show("linear S(1), S(1)", F.linear(xc, distribute_tensor(w, mesh, [Shard(1)])), F.linear(x, w))
show("gelu of S(0)", F.gelu(xs), F.gelu(x))
show("dropout p=0", F.dropout(xs, p=0.0), x)
y = F.linear(xs, wr, br).relu()
print("relu(linear) local", [[round(v, 4) for v in row] for row in y.to_local().tolist()])
dist.destroy_process_group()
