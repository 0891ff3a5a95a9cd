# A copy of the page's example `www/src/examples/compile.py`, for the fused kernels it makes
# (the library is derived from this folder alone, so editing the page's example
# changes nothing here).
import torch
import torch.nn as nn
import torch.nn.functional as F

# torch.compile: a model's forward and backward captured as graphs, a
# recompile when the batch size changes, and a graph break at .item().
# Run it, then open the Compiled panel.
torch.manual_seed(0)
device = "tpu"
model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 4)).to(device)
compiled_model = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
x = torch.randn(64, 8, device=device)
y = torch.randint(0, 4, (64,), device=device)
for step in range(4):
    loss = F.cross_entropy(compiled_model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step}  loss {loss.item():.4f}")


@torch.compile
def scores(h):
    return F.softmax(h @ h.T, dim=-1) @ h


for batch in [4, 6]:  # a new size recompiles, the batch now dynamic
    h = torch.randn(batch, 8, device=device)
    print(f"batch {batch}: {scores(h).abs().mean().item():.4f}")


@torch.compile
def normalize(v):
    total = v.abs().sum().item()  # .item() breaks the graph
    return v / total


print(f"normalized: {normalize(x[:4]).abs().sum().item():.4f}")
