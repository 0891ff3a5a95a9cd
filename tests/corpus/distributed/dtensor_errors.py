# nproc: 4
# Misuse of DeviceMesh and DTensor that PyTorch reports at once on every rank; each is caught.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Partial, Replicate, Shard, distribute_tensor

device = "tpu"


def shown(x):
    # What a DeviceMesh prints names its device type, which is "tpu" here and
    # "cpu" in the oracle's run of this file.
    return str(x).replace(repr(device), "'<device>'")
dist.init_process_group()
rank = dist.get_rank()


def attempt(what, fn):
    try:
        out = fn()
        print(what, "-> no error", getattr(out, "placements", None))
    except Exception as e:
        print(what, "->", type(e).__name__ + ":", shown(str(e).strip()))


attempt("mesh larger than the world", lambda: init_device_mesh(device, (8,)))
attempt("2-D mesh larger than the world", lambda: init_device_mesh(device, (2, 4)))
attempt("names of the wrong length", lambda: init_device_mesh(device, (2, 2), mesh_dim_names=("dp",)))
mesh = init_device_mesh(device, (4,))
grid = init_device_mesh(device, (2, 2), mesh_dim_names=("dp", "tp"))
attempt("unknown mesh dim name", lambda: grid["pp"])
attempt("get_group without a dim on a 2-D mesh", lambda: grid.get_group())
x = torch.arange(8, dtype=torch.float32, device=device).reshape(4, 2)
attempt("two placements on a 1-D mesh", lambda: distribute_tensor(x, mesh, [Shard(0), Replicate()]))
attempt("one placement on a 2-D mesh", lambda: distribute_tensor(x, grid, [Shard(0)]))
attempt("Shard(2) of a 2-D tensor", lambda: distribute_tensor(x, mesh, [Shard(2)]))
p = distribute_tensor(x, mesh, [Partial()])
print("distribute as Partial is allowed", p.placements, p.to_local()[1].tolist(), p.full_tensor()[1].tolist())
attempt("from_local with two placements", lambda: DTensor.from_local(x, mesh, [Shard(0), Shard(1)]))
d = distribute_tensor(x, mesh, [Shard(0)])
attempt("DTensor + tensor", lambda: d + torch.ones(4, 2, device=device))
attempt("DTensor @ tensor", lambda: d @ torch.ones(2, 3, device=device))
attempt("tensor @ DTensor", lambda: torch.ones(3, 4, device=device) @ d)
attempt("DTensor + 0-d tensor", lambda: d + torch.tensor(1.0, device=device))
attempt("DTensors on different meshes", lambda: d + distribute_tensor(x, grid, [Shard(0), Replicate()]))
attempt("nonzero", lambda: d.nonzero())
attempt("unique", lambda: torch.unique(d))
attempt("reshape across the shards", lambda: d.reshape(2, 4))
attempt("redistribute to Partial", lambda: distribute_tensor(x, mesh, [Replicate()]).redistribute(mesh, [Partial()]))
attempt("Shard(-1) is dim 1", lambda: distribute_tensor(x, mesh, [Shard(-1)]))
t = torch.tensor([float(rank)], device=device)
dist.all_reduce(t)
print("still works", t.item())
dist.destroy_process_group()
