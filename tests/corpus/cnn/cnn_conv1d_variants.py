# nn.Conv1d and F.conv1d, and the padding modes of nn.Conv1d/Conv2d (reflect,
# replicate, circular).
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(1)
x = torch.randn(3, 2, 11, device=device)
for conv in [
    nn.Conv1d(2, 4, 3),
    nn.Conv1d(2, 4, 5, stride=2, padding=2),
    nn.Conv1d(2, 4, 3, padding="same", dilation=3),
    nn.Conv1d(2, 6, 2, groups=2, bias=False),
    nn.Conv1d(2, 3, 3, padding=2, padding_mode="reflect"),
    nn.Conv1d(2, 3, 3, padding=1, padding_mode="circular"),
    nn.Conv1d(2, 3, 4, padding="same", padding_mode="replicate"),
]:
    conv = conv.to(device)
    y = conv(x)
    print(conv, tuple(y.shape), round(y.sum().item(), 4))
    print(" ", [round(v, 4) for v in y[2, 0, :4].tolist()])
print(F.conv1d(torch.arange(8.0, device=device).view(1, 1, 8), torch.tensor([[[1.0, -1.0]]], device=device)).cpu())
print(F.conv1d(x[0], torch.ones(1, 2, 3, device=device), padding=1).shape)
conv2 = nn.Conv2d(1, 2, 3, padding=1, padding_mode="reflect").to(device)
img = torch.arange(16.0, device=device).view(1, 1, 4, 4)
print(conv2, round(conv2(img).sum().item(), 4))
print(nn.Conv2d(1, 1, 3, padding=1, padding_mode="circular", bias=False))
