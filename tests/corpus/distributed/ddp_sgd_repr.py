# nproc: 4
# DDP with SGD: what the wrapper prints and names, and replicas that stay equal while training.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

device = "tpu"
dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
ddp = DDP(model)
if rank == 0:
    print(ddp)
    print(ddp.module)
    print("module is model:", ddp.module is model)
    print("parameter names:", [name for name, _ in ddp.named_parameters()])
    print("state_dict keys:", list(ddp.state_dict().keys()))
    print("inner keys:", list(ddp.module.state_dict().keys()))

opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
torch.manual_seed(10 + rank)
x = torch.randn(8, 4, device=device)
y = torch.randn(8, 2, device=device)
for step in range(4):
    opt.zero_grad()
    loss = F.mse_loss(ddp(x), y)
    loss.backward()
    opt.step()
    print(f"step {step} local loss {loss.item():.4f}")

# The gradient DDP leaves is the mean of every rank's local gradient.
opt.zero_grad()
F.mse_loss(ddp(x), y).backward()
local = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
local.load_state_dict(model.state_dict())
local.zero_grad()
F.mse_loss(local(x), y).backward()
mean = local[2].bias.grad.clone()
dist.all_reduce(mean)
mean /= world
print("grad is the mean of local grads:", torch.allclose(model[2].bias.grad, mean, atol=1e-6))

flat = torch.cat([p.detach().flatten() for p in model.parameters()])
gathered = [torch.empty_like(flat) for _ in range(world)]
dist.all_gather(gathered, flat)
print("replicas equal:", all(torch.equal(g, flat) for g in gathered))
if rank == 0:
    print("final bias", [round(v, 4) for v in model[2].bias.tolist()])
dist.destroy_process_group()
