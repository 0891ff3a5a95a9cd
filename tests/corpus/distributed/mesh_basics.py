# nproc: 4
# DeviceMesh on 4 ranks: 1-D and 2-D meshes with and without names, sub-meshes, coordinates,
# the process group of one mesh dimension, and what a mesh prints.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

device = "tpu"


def shown(x):
    # What a DeviceMesh prints names its device type, which is "tpu" here and
    # "cpu" in the oracle's run of this file.
    return str(x).replace(repr(device), "'<device>'")
dist.init_process_group()
rank = dist.get_rank()

flat = init_device_mesh(device, (4,))
named = init_device_mesh(device, (4,), mesh_dim_names=("dp",))
grid = init_device_mesh(device, (2, 2))
mesh = init_device_mesh(device, (2, 2), mesh_dim_names=("dp", "tp"))
if rank == 0:
    print(shown(flat))
    print(shown(repr(named)))
    print(shown(grid))
    print(shown(repr(mesh)))
    print("flat", flat.shape, flat.ndim, flat.mesh_dim_names, flat.size(), flat.mesh.tolist(), flat.mesh.dtype)
    print("grid", grid.shape, grid.ndim, grid.mesh_dim_names, grid.size(), grid.size(0), grid.size(1))
    print("mesh.mesh", mesh.mesh.tolist())
    print(shown(mesh["tp"]), shown(mesh["dp"]))
print("coordinate", flat.get_coordinate(), mesh.get_coordinate(), grid.get_coordinate())
print("local rank dp", mesh.get_local_rank("dp"), "tp", mesh.get_local_rank("tp"), "dim 1", mesh.get_local_rank(1))
tp = mesh["tp"]
dp = mesh["dp"]
print("tp sub-mesh", tp.mesh.tolist(), tp.shape, tp.ndim, tp.mesh_dim_names, tp.get_coordinate(), tp.size())
print("dp sub-mesh", dp.mesh.tolist(), dp.get_coordinate(), dp.get_local_rank())

# The group of a mesh dimension is an ordinary process group.
tp_group = mesh.get_group("tp")
dp_group = mesh.get_group(0)
print("tp group ranks", dist.get_process_group_ranks(tp_group), "dp group ranks", dist.get_process_group_ranks(dp_group))
print("tp sub-mesh group is the same group", dist.get_process_group_ranks(tp.get_group()) == dist.get_process_group_ranks(tp_group))
t = torch.tensor([float(rank)], device=device)
dist.all_reduce(t, group=tp_group)
u = torch.tensor([float(rank)], device=device)
dist.all_reduce(u, group=dp_group)
print("sum over tp", t.item(), "sum over dp", u.item())
print("rank in tp group", dist.get_rank(tp_group), "size", dist.get_world_size(tp_group))
print("1-D mesh group is the world", dist.get_process_group_ranks(flat.get_group()))
dist.destroy_process_group()
