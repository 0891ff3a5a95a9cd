# torch.compile of a small CNN: padded convolutions, batch norm in training and
# eval mode, max and average pooling, their backward graphs, and an SGD step.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(2, 4, 3, padding=1, bias=False),
    nn.BatchNorm2d(4),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 6, 3, stride=2, padding=1),
    nn.ReLU(),
    nn.AvgPool2d(2),
    nn.Flatten(),
    nn.Linear(6, 3),
).to(device)
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(8, 2, 8, 8, device=device)
y = torch.arange(8, device=device) % 3
for step in range(3):
    loss = F.cross_entropy(compiled(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print([round(v, 4) for v in model[1].running_mean.tolist()], model[1].num_batches_tracked.item())
model.eval()
with torch.no_grad():
    print([round(v, 4) for v in compiled(x)[0].tolist()])
conv1d = torch.compile(lambda a, w: F.conv1d(F.pad(a, (2, 1), mode="reflect"), w, stride=2))
print(conv1d(torch.arange(12.0, device=device).view(1, 2, 6), torch.ones(1, 2, 3, device=device)).cpu())
