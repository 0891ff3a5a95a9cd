# PyTorch's super-resolution example's network (sub-pixel convolution):
# convolutions, then PixelShuffle to upscale by 3, Kaiming-initialised,
# trained with Adam on MSE to undo a bilinear downscale made with
# F.interpolate, with the PSNR the example reports.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init

device = "tpu"


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        return self.pixel_shuffle(self.conv4(x))

    def _initialize_weights(self):
        init.kaiming_uniform_(self.conv1.weight, nonlinearity="relu")
        init.kaiming_uniform_(self.conv2.weight, nonlinearity="relu")
        init.kaiming_uniform_(self.conv3.weight, nonlinearity="relu")
        init.kaiming_uniform_(self.conv4.weight)


torch.manual_seed(0)
model = Net(upscale_factor=3).to(device)
print(model)
high = torch.rand(4, 1, 12, 12, device=device)
low = F.interpolate(high, scale_factor=1 / 3, mode="bilinear", align_corners=False)
print(low.shape, [round(v, 4) for v in low[0, 0, 0].tolist()])
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    optimizer.zero_grad()
    out = model(low)
    loss = criterion(out, high)
    loss.backward()
    optimizer.step()
    print("epoch", epoch, out.shape, round(loss.item(), 5), "PSNR", round(10 * math.log10(1 / loss.item()), 3))
with torch.no_grad():
    up = model(low)
    near = F.interpolate(low, scale_factor=3, mode="nearest")
    print(round(criterion(up, high).item(), 5), round(criterion(near, high).item(), 5))
