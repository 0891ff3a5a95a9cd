# Max pooling: MaxPool1d/2d and F.max_pool1d/2d with padding, dilation, ceil_mode,
# return_indices and unbatched input; gradients through the chosen elements.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(2)
x = torch.randn(2, 3, 7, 8, device=device)
for pool in [nn.MaxPool2d(2), nn.MaxPool2d(3, stride=2, padding=1), nn.MaxPool2d((2, 3), stride=(1, 2)),
             nn.MaxPool2d(3, stride=2, ceil_mode=True), nn.MaxPool2d(2, dilation=2), nn.MaxPool2d(3, 1, 1)]:
    y = pool(x)
    print(pool, tuple(y.shape), round(y.sum().item(), 4))
vals, idx = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
print(vals[0, 0].cpu())
print(idx[0, 0].cpu())
v2, i2 = nn.MaxPool2d(2, return_indices=True, ceil_mode=True)(x[1])
print(tuple(v2.shape), i2[2].cpu())
s = torch.randn(2, 2, 9, device=device)
print(F.max_pool1d(s, 3).cpu())
print(F.max_pool1d(s, 3, stride=2, padding=1, return_indices=True)[1].cpu())
print(nn.MaxPool1d(2, ceil_mode=True)(s[0]).shape)
xr = x.clone().requires_grad_()
out = F.max_pool2d(xr, 3, stride=2, padding=1)
print(out.grad_fn.name())
(out * torch.arange(out.numel(), device=device).view(out.shape)).sum().backward()
print(xr.grad[0, 0].cpu())
t = torch.tensor([[[[1.0, 1.0, 2.0, 2.0], [0.0, 1.0, 2.0, 0.0]]]], device=device, requires_grad=True)
F.max_pool2d(t, 2).sum().backward()
print(t.grad.cpu())
