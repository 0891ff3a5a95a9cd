# Warmup and annealing schedules: LinearLR, LambdaLR, CosineAnnealingLR, OneCycleLR.
import math
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

device = "tpu"
torch.manual_seed(2)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
X = torch.randn(16, 4, device=device)
y = torch.randn(16, 1, device=device)


def fresh_opt(lr=0.1):
    return torch.optim.SGD(model.parameters(), lr=lr)


opt = fresh_opt()
warmup = lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)
print("LinearLR at start", warmup.get_last_lr())
seen = []
for _ in range(6):
    opt.step()
    warmup.step()
    seen.append(round(warmup.get_last_lr()[0], 6))
print("LinearLR", seen)

opt = fresh_opt()
lam = lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 1.0 / (1 + epoch))
seen = []
for _ in range(5):
    opt.step()
    lam.step()
    seen.append(round(lam.get_last_lr()[0], 6))
print("LambdaLR", seen)

opt = fresh_opt(0.5)
cosine = lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=0.01)
seen = []
for epoch in range(12):
    loss = nn.functional.mse_loss(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    cosine.step()
    seen.append(round(cosine.get_last_lr()[0], 5))
print("Cosine", seen)
cos_seen = seen
print("loss after cosine run", round(loss.item(), 4))

opt = torch.optim.Adam(model.parameters(), lr=0.01)
onecycle = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=10)
seen, moms = [], []
for step in range(10):
    opt.step()
    seen.append(round(onecycle.get_last_lr()[0], 6))
    moms.append(round(opt.param_groups[0]["betas"][0], 4))
    onecycle.step()
print("OneCycle lr", seen)
print("OneCycle beta1", moms)

expected = [0.01 + (0.5 - 0.01) * (1 + math.cos(math.pi * t / 10)) / 2 for t in range(1, 11)]
print("closed form matches", all(abs(a - b) < 1e-4 for a, b in zip(cos_seen, expected)))
try:
    lr_scheduler.StepLR(opt, step_size=0)
    print("no error")
except Exception as e:
    print(type(e).__name__, e)
