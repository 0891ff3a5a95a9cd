# nproc: 8
# A 2x4 mesh and a 2x2x2 mesh on 8 ranks: sub-meshes, coordinates, and collectives inside
# the group of each mesh dimension.
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
mesh = init_device_mesh(device, (2, 4), mesh_dim_names=("dp", "tp"))
cube = init_device_mesh(device, (2, 2, 2), mesh_dim_names=("pp", "dp", "tp"))
if rank == 0:
    print(shown(mesh))
    print(shown(cube))
    print(mesh.mesh.tolist())
    print(cube.mesh.tolist())
    print(shown(mesh["tp"]), shown(cube["dp"]))
print("coord", mesh.get_coordinate(), cube.get_coordinate(), "tp ranks", mesh["tp"].mesh.tolist(), "dp ranks", mesh["dp"].mesh.tolist())
print("cube sizes", cube.size(), cube.size(0), cube.size(2), "local ranks", [cube.get_local_rank(d) for d in ("pp", "dp", "tp")])
x = torch.tensor([rank + 1.0], device=device)
dist.all_reduce(x, group=mesh.get_group("tp"))
y = torch.tensor([rank + 1.0], device=device)
dist.all_reduce(y, op=dist.ReduceOp.MAX, group=mesh.get_group("dp"))
z = torch.tensor([rank + 1.0], device=device)
dist.all_reduce(z, op=dist.ReduceOp.PRODUCT, group=cube.get_group("pp"))
print("tp sum", x.item(), "dp max", y.item(), "pp product", z.item())
out = torch.empty(4, dtype=torch.int64, device=device)
dist.all_gather_into_tensor(out, torch.tensor([rank], device=device), group=mesh.get_group(1))
print("gathered over tp", out.tolist())
dist.destroy_process_group()
