# nproc: 4
# fully_shard of layers whose rows do not divide by 4: Linear(5, 3) gives rank 3 an empty
# shard; training still agrees with the same model trained without sharding.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
mesh = init_device_mesh(device, (4,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 2)).to(device)
reference = nn.Sequential(nn.Linear(5, 3), nn.Tanh(), nn.Linear(3, 2)).to(device)
reference.load_state_dict(model.state_dict())
fully_shard(model[0], mesh=mesh)
fully_shard(model[2], mesh=mesh)
fully_shard(model, mesh=mesh)
for name, p in model.named_parameters():
    local = p.to_local()
    print(name, p.placements, tuple(p.shape), "local", tuple(local.shape), [round(v, 4) for v in local.flatten().tolist()[:5]])
opt = torch.optim.SGD(model.parameters(), lr=0.5)
ref_opt = torch.optim.SGD(reference.parameters(), lr=0.5)
torch.manual_seed(100)
xs = torch.randn(world, 4, 5, device=device)
ys = torch.randn(world, 4, 2, device=device)
for step in range(3):
    loss = F.mse_loss(model(xs[rank]), ys[rank])
    opt.zero_grad()
    loss.backward()
    opt.step()
    ref_loss = sum(F.mse_loss(reference(xs[r]), ys[r]) for r in range(world)) / world
    ref_opt.zero_grad()
    ref_loss.backward()
    ref_opt.step()
    print("step", step, "local loss", round(loss.item(), 4), "mean loss", round(ref_loss.item(), 4))
g = model[0].weight.grad
print("grad", g.placements, tuple(g.to_local().shape))
same = all(torch.allclose(p.full_tensor(), q, atol=1e-5) for p, q in zip(model.parameters(), reference.parameters()))
print("same as unsharded training on the whole batch", same)
print("first layer", [round(v, 4) for v in model[0].weight.full_tensor()[2].tolist()])
dist.destroy_process_group()
