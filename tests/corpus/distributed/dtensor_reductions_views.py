# nproc: 4
# Reductions and views of sharded DTensors: which dims stay sharded, which become Partial.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import Replicate, Shard, distribute_tensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
a = torch.arange(32, dtype=torch.float32, device=device).reshape(8, 4)
s0 = distribute_tensor(a, mesh, [Shard(0)])
s1 = distribute_tensor(a, mesh, [Shard(1)])


def show(name, d):
    print(name, d.placements, tuple(d.shape), "local", tuple(d.to_local().shape), [round(v, 4) for v in d.full_tensor().flatten()[:4].tolist()])


show("sum()", s0.sum())
print("sum local", s0.sum().to_local().item())
show("sum(0) over the sharded dim", s0.sum(0))
show("sum(1) over an unsharded dim", s0.sum(1))
show("sum(1, keepdim)", s0.sum(1, keepdim=True))
show("mean()", s0.mean())
show("mean(0)", s0.mean(0))
show("mean(1)", s0.mean(1))
show("max()", s0.max())
show("amax(1)", s0.amax(1))
show("S(1).sum(0)", s1.sum(0))
show("S(1).sum(1)", s1.sum(1))
show("view(8, 2, 2)", s0.view(8, 2, 2))
show("view(-1)", s0.view(-1))
show("reshape(16, 2)", s0.reshape(16, 2))
show("flatten", s0.flatten())
show("t()", s0.t())
show("transpose(0, 1)", s0.transpose(0, 1))
show("S(1).t()", s1.t())
show("unsqueeze(0)", s0.unsqueeze(0))
show("[:, 1]", s0[:, 1])
show("cumsum(1)", s0.cumsum(1))
show("cat dim 1", torch.cat([s0, s0], dim=1))
dist.destroy_process_group()
