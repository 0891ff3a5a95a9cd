# nproc: 2
# reshard_after_forward on the root: False keeps the root's parameters gathered between
# forward and backward, True frees them; training is the same either way. SGD and AdamW.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))


def build(reshard, optimizer):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 4), nn.Linear(4, 1)).to(device)
    fully_shard(model[0], mesh=mesh)
    fully_shard(model[2], mesh=mesh)
    fully_shard(model, mesh=mesh, reshard_after_forward=reshard)
    opt = optimizer(model.parameters())
    return model, opt


torch.manual_seed(7)
x = torch.randn(2, 3, 4, device=device)[rank]
for reshard in (False, True):
    for name, optimizer in (("SGD", lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9)),
                            ("AdamW", lambda ps: torch.optim.AdamW(ps, lr=0.01))):
        model, opt = build(reshard, optimizer)
        losses = []
        for step in range(3):
            loss = model(x).pow(2).mean()
            if step == 0:
                kinds = [type(p).__name__ for p in model.parameters()]
                print("reshard", reshard, "after forward", kinds)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(round(loss.item(), 4))
        print("reshard", reshard, name, losses, round(model[3].weight.full_tensor().sum().item(), 4))
dist.destroy_process_group()
