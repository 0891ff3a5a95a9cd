# Dropout1d/2d in eval mode and at p=0, Flatten and torch.flatten after
# convolutions, .view after a conv (its output is contiguous), and the repr of a
# classifier with every CNN layer.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(8)
x = torch.randn(2, 3, 6, 6, device=device)
d2 = nn.Dropout2d(0.4)
d1 = nn.Dropout1d()
print(d2, d1)
d2.eval()
d1.eval()
print(torch.equal(d2(x), x), torch.equal(d1(x[:, :, 0]), x[:, :, 0]))
print(torch.equal(F.dropout2d(x, 0.0), x), torch.equal(F.dropout2d(x, 0.7, training=False), x))
conv = nn.Conv2d(3, 4, 3).to(device)
y = conv(x)
print(y.is_contiguous(), y.view(2, -1).shape, nn.Flatten()(y).shape, nn.Flatten(0, 1)(y).shape,
      torch.flatten(y, 2).shape)
net = nn.Sequential(
    nn.Conv1d(3, 4, 3), nn.BatchNorm1d(4), nn.ReLU(), nn.MaxPool1d(2), nn.AvgPool1d(2),
    nn.AdaptiveAvgPool1d(2), nn.Dropout1d(0.1), nn.Flatten(), nn.Linear(8, 2),
)
print(net)
net.eval()
out = net.to(device)(x[:, :, 0, :].repeat(1, 1, 3))
print(out.shape, [round(v, 4) for v in out[0].tolist()])
print(nn.Sequential(nn.Conv2d(3, 4, 3), nn.Dropout2d(0.2), nn.AdaptiveMaxPool2d((2, 2)), nn.Flatten()))
