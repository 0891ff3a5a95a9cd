# nproc: 4
# A small language model (Embedding, LayerNorm, Linear) sharded with fully_shard and trained
# with AdamW on different tokens per rank; the shards together equal one replica's update.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm(dim)
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        h = self.norm(self.embed(tokens))
        return self.head(F.gelu(self.proj(h)))


device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (4,))
torch.manual_seed(0)
model = TinyLM(12, 8).to(device)
fully_shard(model.embed, mesh=mesh)
fully_shard(model.proj, mesh=mesh)
fully_shard(model, mesh=mesh)
print(type(model).__name__, type(model.embed).__name__, type(model.norm).__name__, type(model.head).__name__)
for name, p in model.named_parameters():
    print(name, p.placements, tuple(p.shape), tuple(p.to_local().shape))
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
tokens = (torch.arange(10, device=device) * (rank + 1)) % 12
for step in range(4):
    logits = model(tokens[:-1])
    loss = F.cross_entropy(logits, tokens[1:])
    opt.zero_grad()
    loss.backward()
    opt.step()
    total = loss.detach().clone()
    dist.all_reduce(total, op=dist.ReduceOp.AVG)
    print("step", step, "loss", round(loss.item(), 4), "mean", round(total.item(), 4))
state = opt.state[model.embed.weight]
print("adam state", sorted(state.keys()), type(state["exp_avg"]).__name__, state["exp_avg"].placements, tuple(state["exp_avg"].to_local().shape))
print("embed", [round(v, 4) for v in model.embed.weight.full_tensor()[1].tolist()])
print("norm", [round(v, 4) for v in model.norm.weight.full_tensor().tolist()])
dist.destroy_process_group()
