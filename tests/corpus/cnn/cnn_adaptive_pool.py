# Adaptive pooling: AdaptiveAvgPool1d/2d and AdaptiveMaxPool1d/2d with output sizes
# that divide the input and ones that do not, None sizes, and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(4)
x = torch.randn(2, 3, 6, 7, device=device)
for pool in [nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveAvgPool2d(3), nn.AdaptiveAvgPool2d((4, 5)),
             nn.AdaptiveAvgPool2d((None, 2)), nn.AdaptiveMaxPool2d(2), nn.AdaptiveMaxPool2d((3, 4))]:
    y = pool(x)
    print(pool, tuple(y.shape), round(y.sum().item(), 4))
    print(" ", [round(v, 4) for v in y[1, 2].flatten()[:5].tolist()])
s = torch.arange(10.0, device=device).view(1, 2, 5)
print(F.adaptive_avg_pool1d(s, 3).cpu())
print(F.adaptive_max_pool1d(s, 2).cpu())
print(nn.AdaptiveAvgPool1d(4)(s[0]).cpu())
print(F.adaptive_avg_pool2d(x[0], 1).shape)
xr = x.clone().requires_grad_()
out = F.adaptive_avg_pool2d(xr, (4, 5))
print(out.grad_fn.name())
(out * torch.arange(20.0, device=device).view(4, 5)).sum().backward()
print([round(v, 4) for v in xr.grad[0, 0, 0].tolist()])
