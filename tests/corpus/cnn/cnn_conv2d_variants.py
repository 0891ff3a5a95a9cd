# nn.Conv2d and F.conv2d: stride, padding (ints, tuples, "same", "valid"), dilation,
# groups, no bias, unbatched input; reprs, shapes, values and grad_fn names.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
x = torch.randn(2, 4, 7, 6, device=device)
convs = [
    nn.Conv2d(4, 6, 3),
    nn.Conv2d(4, 6, (3, 2), stride=2, padding=1),
    nn.Conv2d(4, 6, 3, padding="same", dilation=2),
    nn.Conv2d(4, 6, 2, padding="valid", bias=False),
    nn.Conv2d(4, 6, 3, stride=(2, 1), padding=(2, 0), groups=2),
    nn.Conv2d(4, 4, 3, padding=1, groups=4),
    nn.Conv2d(4, 6, 4, padding="same"),
]
for conv in convs:
    conv = conv.to(device)
    y = conv(x)
    print(conv)
    print(" ", tuple(y.shape), round(y.sum().item(), 4), round(y.abs().mean().item(), 4))
    print(" ", [round(v, 4) for v in y[1, -1, 0, :3].tolist()])
w = torch.randn(3, 4, 2, 2, device=device)
b = torch.randn(3, device=device)
y = F.conv2d(x, w, b, stride=1, padding=(1, 0), dilation=(1, 2))
print(y.shape, round(y.sum().item(), 4))
print(F.conv2d(x[0], w).shape, round(F.conv2d(x[0], w)[2, 3, 1].item(), 4))
print(F.conv2d(x, w, padding="same").shape)
xr = x.clone().requires_grad_()
print(F.conv2d(xr, w).grad_fn.name())
print(F.conv2d(torch.ones(1, 1, 3, 3, device=device), torch.ones(1, 1, 2, 2, device=device)).cpu())
