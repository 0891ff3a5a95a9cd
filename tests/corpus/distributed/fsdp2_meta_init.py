# nproc: 2
# FSDP2's documented initialisation: the model built on the meta device
# (no memory, no random draws), fully_shard on each block and the root,
# to_empty onto the real device, then reset_parameters; trained for a few
# steps. The meta tensors print as PyTorch prints them.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return x + F.gelu(self.fc(self.norm(x)))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(16, 8)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(8, 16)

    def forward(self, idx):
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(x)

    def reset_parameters(self):
        for m in self.modules():
            if m is not self and hasattr(m, "reset_parameters"):
                m.reset_parameters()


torch.manual_seed(0)
state = torch.get_rng_state()
with torch.device("meta"):
    model = Model()
print(rank, model.head.weight.device, model.blocks[0].fc.bias, torch.equal(state, torch.get_rng_state()))
for block in model.blocks:
    fully_shard(block, mesh=mesh)
fully_shard(model, mesh=mesh)
print(rank, type(model).__name__, model.head.weight.placements, model.head.weight.device.type)
model.to_empty(device=device)
torch.manual_seed(1)
model.reset_parameters()
w = model.head.weight
print(rank, w.device == torch.device(device), tuple(w.to_local().shape), [round(v, 4) for v in w.to_local()[0, :4].tolist()])
print(rank, [round(v, 4) for v in model.blocks[1].norm.weight.to_local().tolist()])
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
idx = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]], device=device)
for step in range(3):
    loss = F.cross_entropy(model(idx).reshape(-1, 16), idx.roll(1, 1).reshape(-1))
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(rank, step, round(loss.item(), 4))
try:
    with torch.device("meta"):
        Model().to(device)
except NotImplementedError as e:
    print(rank, "NotImplementedError:", e)
dist.destroy_process_group()
