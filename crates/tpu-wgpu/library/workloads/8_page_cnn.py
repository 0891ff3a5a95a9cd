# A copy of the page's example `www/src/examples/cnn.py`, for the fused kernels it makes
# (the library is derived from this folder alone, so editing the page's example
# changes nothing here).
import torch
import torch.nn as nn
import torch.nn.functional as F

# A small convolutional network learns to tell three kinds of synthetic 8x8
# images apart: a vertical bar, a horizontal bar, a bright corner. On a TPU a
# convolution is a matmul in disguise: every output position is a row and, at
# each of the 3x3 kernel taps, the input channels are the contraction and the
# output channels the MXU's columns. With 1 or 16 channels the 128-wide MXU is
# mostly padding; the Kernels panel names each convolution's matmul, its MXU
# use and the hints.
device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1, bias=False),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(16, 16, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 3),
).to(device)
print(model)

x = torch.randn(24, 1, 8, 8, device=device) * 0.5
y = torch.arange(24, device=device) % 3
x[y == 0, :, :, 3:5] += 2.0
x[y == 1, :, 3:5, :] += 2.0
x[y == 2, :, :3, :3] += 2.0
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(10):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
print(f"accuracy {accuracy:.3f}")
