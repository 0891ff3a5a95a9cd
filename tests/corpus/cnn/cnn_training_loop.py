# A small CNN trained end to end: nn.Sequential of Conv2d, BatchNorm2d, ReLU,
# MaxPool2d, a grouped Conv2d, AdaptiveAvgPool2d, Flatten and Linear, with Adam,
# on synthetic striped images; then eval accuracy and parameter statistics. (A conv
# before a batch norm has no bias: its gradient is rounding noise, which Adam
# would turn into full-size steps.)
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(7)
model = nn.Sequential(
    nn.Conv2d(2, 8, 3, padding=1, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 8, 3, padding="same", groups=2, bias=False),
    nn.BatchNorm2d(8),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Dropout(0.0),
    nn.Linear(8, 3),
).to(device)
print(model)
print(sum(p.numel() for p in model.parameters()))
n = 24
x = torch.randn(n, 2, 8, 8, device=device) * 0.5
y = torch.arange(n, device=device) % 3
x[y == 0, 0, :, 2:4] += 1.5
x[y == 1, 1, 3:5, :] += 1.5
x[y == 2, :, 5:7, 5:7] -= 1.5
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 9:
        print(step, round(loss.item(), 4))
model.eval()
with torch.no_grad():
    logits = model(x)
print("accuracy", (logits.argmax(1) == y).float().mean().item())
print([round(v, 4) for v in logits[0].tolist()])
print([round(v, 4) for v in model[1].running_mean.tolist()[:4]], model[5].num_batches_tracked.item())
print(round(model[0].weight.grad.norm().item(), 4), round(model[4].weight.abs().sum().item(), 4))
