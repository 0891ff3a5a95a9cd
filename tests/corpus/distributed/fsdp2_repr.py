# nproc: 4
# What fully_shard does to a model: class names, print(model), parameters as DTensors,
# plain parameters inside forward, state_dict entries, and the gradient's placements.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FSDPModule, fully_shard
from torch.distributed.tensor import DTensor

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to(device)
fully_shard(model[0], mesh=mesh)
returned = fully_shard(model, mesh=mesh)
print("returns the module", returned is model, type(model).__name__, type(model[0]).__name__, type(model[2]).__name__)
print("isinstance", isinstance(model, FSDPModule), isinstance(model, nn.Sequential), isinstance(model[2], FSDPModule))
if rank == 0:
    print(model)
for name, p in model.named_parameters():
    print(name, type(p).__name__, isinstance(p, nn.Parameter), p.placements, tuple(p.shape), tuple(p.to_local().shape))


def peek(module, args):
    w = module.weight
    print("inside forward", type(w).__name__, tuple(w.shape), [type(p).__name__ for p in model.parameters()])


model[0].register_forward_pre_hook(peek)
model[2].register_forward_pre_hook(peek)
x = torch.ones(2, 8, device=device) * (rank + 1)
out = model(x)
print("output", type(out).__name__, tuple(out.shape))
print("after forward", [type(p).__name__ for p in model.parameters()])
out.sum().backward()
print("after backward", [type(p).__name__ for p in model.parameters()])
g = model[0].weight.grad
print("grad", type(g).__name__, g.placements, tuple(g.shape), tuple(g.to_local().shape))
print("bias grad", [round(v, 4) for v in model[2].bias.grad.full_tensor().tolist()])
sd = model.state_dict()
print("state_dict", list(sd.keys()))
print("values", {k: (type(v).__name__, str(v.placements)) for k, v in sd.items()} == {k: ("DTensor", "(Shard(dim=0),)") for k in sd})
print("shapes", [tuple(v.shape) for v in sd.values()], [tuple(v.to_local().shape) for v in sd.values()])
dist.destroy_process_group()
