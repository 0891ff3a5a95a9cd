# Average pooling: AvgPool1d/2d and F.avg_pool1d/2d with padding, count_include_pad,
# ceil_mode and divisor_override; gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(3)
x = torch.randn(2, 2, 7, 6, device=device)
for pool in [nn.AvgPool2d(2), nn.AvgPool2d(3, stride=2, padding=1), nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
             nn.AvgPool2d(3, stride=2, ceil_mode=True), nn.AvgPool2d(3, stride=2, padding=1, ceil_mode=True, count_include_pad=False),
             nn.AvgPool2d((2, 3), stride=1, divisor_override=4)]:
    y = pool(x)
    print(pool, tuple(y.shape), round(y.sum().item(), 4))
    print(" ", [round(v, 4) for v in y[1, 1, -1].tolist()])
print(F.avg_pool2d(torch.arange(16.0, device=device).view(1, 1, 4, 4), 2).cpu())
s = torch.arange(10.0, device=device).view(1, 1, 10)
print(F.avg_pool1d(s, 3).cpu())
print(F.avg_pool1d(s, 4, stride=3, padding=2, ceil_mode=True, count_include_pad=False).cpu())
print(nn.AvgPool1d(2)(s[0]).cpu(), nn.AvgPool1d(3, stride=2))
xr = x.clone().requires_grad_()
out = F.avg_pool2d(xr, 3, stride=2, padding=1, count_include_pad=False)
print(out.grad_fn.name())
(out * out).sum().backward()
print([round(v, 4) for v in xr.grad[0, 0, :3].flatten().tolist()])
