# Benchmark (c): a CNN training step. BATCH images of 3 x SIZE x SIZE (32 x 32,
# CIFAR's size), conv 3 -> CH -> 2 CH with batch norm, ReLU and pooling, SGD
# with momentum. STEPS is set by `tpu bench`; BATCH, CH, SIZE can be scaled
# down by it; COMPILED runs the model through torch.compile.
import torch
import torch.nn as nn
import torch.nn.functional as F
device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, CH, 3, padding=1, bias=False),
    nn.BatchNorm2d(CH),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(CH, 2 * CH, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(2 * CH, 10),
).to(device)
if COMPILED:
    model = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(BATCH, 3, SIZE, SIZE, device=device)
y = torch.randint(0, 10, (BATCH,), device=device)
for step in range(STEPS):
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    last = loss.item()
print(round(last, 4))
