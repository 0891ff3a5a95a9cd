# Benchmark (a): an MLP training step. batch 256, 512 -> 2048 -> 512, AdamW.
# STEPS is set by `tpu bench`; BATCH, D_IN, D_HIDDEN can be scaled down by it;
# COMPILED runs the model through torch.compile (forward and backward graphs).
import torch
import torch.nn as nn
import torch.nn.functional as F
device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(D_IN, D_HIDDEN), nn.GELU(), nn.Linear(D_HIDDEN, D_IN)).to(device)
if COMPILED:
    model = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(BATCH, D_IN, device=device)
y = torch.randn(BATCH, D_IN, device=device)
for step in range(STEPS):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    last = loss.item()
print(round(last, 4))
