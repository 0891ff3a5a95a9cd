# nproc: 4
# FSDP2 with reshard_after_forward=2 on 4 ranks: after forward each rank keeps
# half of each layer's parameters, and pairs of ranks all-gather them before
# backward; the collectives CommDebugMode counts per phase, the losses, and
# the errors for a size that does not divide the shard group and for an int
# given to set_reshard_after_forward.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from torch.distributed.tensor.debug import CommDebugMode

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8)).to(device)
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer, mesh=mesh, reshard_after_forward=2)
fully_shard(model, mesh=mesh)
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
torch.manual_seed(rank)
x = torch.randn(4, 8, device=device)


def counts(comm):
    return sorted((str(k).split(".")[-1], v) for k, v in comm.get_comm_counts().items())


for step in range(3):
    with CommDebugMode() as forward:
        loss = model(x).pow(2).mean()
    with CommDebugMode() as backward:
        loss.backward()
    opt.step()
    opt.zero_grad()
    print(step, round(loss.item(), 5), "forward", counts(forward), "backward", counts(backward))
print(model[0].weight.placements, tuple(model[0].weight.to_local().shape))
print("full weight", round(model[2].weight.full_tensor().sum().item(), 4))

other = nn.Linear(8, 8).to(device)
try:
    fully_shard(other, mesh=mesh, reshard_after_forward=3)
except ValueError as e:
    print("ValueError:", e)
try:
    model.set_reshard_after_forward(2)
except ValueError as e:
    print("ValueError:", e)
dist.destroy_process_group()
