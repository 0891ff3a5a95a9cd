# nproc: 4
# A 2-D mesh on a v5e 2x2: the four chips as dp x tp. A batch is split by rows
# over "dp" and a weight by columns over "tp", so their product is cut both
# ways and every chip holds a different quarter. Redistributing then gathers
# over one mesh dimension at a time, along that dimension's torus axis.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2, 2), mesh_dim_names=("dp", "tp"))
print("rank", rank, "mesh coordinate", mesh.get_coordinate())

torch.manual_seed(0)
batch = torch.randn(8, 16, device=device)
weight = torch.randn(16, 8, device=device)
x = distribute_tensor(batch, mesh, [Shard(0), Replicate()])  # rows over dp
w = distribute_tensor(weight, mesh, [Replicate(), Shard(1)])  # columns over tp
y = x @ w  # rows over dp, columns over tp: no communication
print("y", y.placements, tuple(y.shape), "local", tuple(y.to_local().shape))
rows = y.redistribute(mesh, [Shard(0), Replicate()])  # all-gather over tp
total = y.sum()  # partial sums over both mesh dimensions
print("rows", rows.placements, "local", tuple(rows.to_local().shape))
print("total", total.placements, round(total.full_tensor().item(), 3))
print("matches the unsharded product:", torch.allclose(y.full_tensor(), batch @ weight, atol=1e-5))
dist.destroy_process_group()
