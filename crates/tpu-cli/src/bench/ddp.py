# Benchmark (c): a DDP training step, as many ranks as `tpu bench --ranks`
# launches: each rank trains on its own batch, and the gradients' buckets are
# all-reduced. STEPS, BATCH, D_IN, D_HIDDEN are set by `tpu bench`.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
device = "tpu"
dist.init_process_group()
torch.manual_seed(0)
model = DDP(nn.Sequential(nn.Linear(D_IN, D_HIDDEN), nn.ReLU(), nn.Linear(D_HIDDEN, D_IN)).to(device))
opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
torch.manual_seed(dist.get_rank())
x = torch.randn(BATCH, D_IN, device=device)
y = torch.randn(BATCH, D_IN, device=device)
for step in range(STEPS):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    last = loss.item()
print(round(last, 4))
dist.destroy_process_group()
