# nproc: 4
# Tensor parallelism with DTensor on a 1x4 slice: a two-layer MLP split
# Megatron-style over a 1-D mesh named "tp". The first weight is cut by its
# columns and the second by its rows, so each chip multiplies its own slices
# with no communication, until the second matmul leaves partial sums that one
# all-reduce adds up (see the Sharding, Torus and Timeline panels).
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,), mesh_dim_names=("tp",))

torch.manual_seed(0)  # the same full tensors on every rank
x_full = torch.randn(8, 16, device=device)
w1_full = torch.randn(16, 32, device=device) / 4
w2_full = torch.randn(32, 16, device=device) / 4

x = distribute_tensor(x_full, mesh, [Replicate()])
w1 = distribute_tensor(w1_full, mesh, [Shard(1)])  # column-parallel
w2 = distribute_tensor(w2_full, mesh, [Shard(0)])  # row-parallel
h = (x @ w1).relu()  # each chip's columns of the hidden layer
partial = h @ w2  # each chip's partial sum of the output
y = partial.redistribute(mesh, [Replicate()])  # the all-reduce
print("w1", w1.placements, "local", tuple(w1.to_local().shape))
print("h", h.placements, "local", tuple(h.to_local().shape))
print("partial", partial.placements, "y", y.placements, tuple(y.shape))

want = (x_full @ w1_full).relu() @ w2_full
print("matches the unsharded MLP:", torch.allclose(y.to_local(), want, atol=1e-5))
dist.destroy_process_group()
