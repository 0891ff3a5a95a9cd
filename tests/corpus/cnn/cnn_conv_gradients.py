# Gradients of convolutions with respect to input, weight and bias, across stride,
# padding, dilation and groups, in 1-d and 2-d.
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(6)
cases = [
    dict(stride=1, padding=0, dilation=1, groups=1),
    dict(stride=2, padding=1, dilation=1, groups=1),
    dict(stride=1, padding=2, dilation=2, groups=1),
    dict(stride=(2, 1), padding=(0, 1), dilation=1, groups=2),
    dict(stride=3, padding=1, dilation=(1, 2), groups=1),
]
for case in cases:
    x = torch.randn(2, 4, 8, 7, device=device, requires_grad=True)
    w = torch.randn(6, 4 // case["groups"], 3, 2, device=device, requires_grad=True)
    b = torch.randn(6, device=device, requires_grad=True)
    y = F.conv2d(x, w, b, **case)
    g = torch.linspace(-1, 1, y.numel(), device=device).view(y.shape)
    (y * g).sum().backward()
    print(tuple(y.shape), round(x.grad.sum().item(), 4), round(x.grad.abs().sum().item(), 4),
          round(w.grad.abs().sum().item(), 4), [round(v, 4) for v in b.grad.tolist()])
    print(" ", [round(v, 4) for v in x.grad[1, 0, 1].tolist()])
    print(" ", [round(v, 4) for v in w.grad[0, 0].flatten().tolist()])
x1 = torch.randn(3, 2, 9, device=device, requires_grad=True)
w1 = torch.randn(4, 2, 3, device=device, requires_grad=True)
y1 = F.conv1d(x1, w1, stride=2, padding=2, dilation=2)
(y1 ** 2).mean().backward()
print(tuple(y1.shape), [round(v, 4) for v in x1.grad[0, 1].tolist()], round(w1.grad.sum().item(), 4))
a = torch.ones(1, 1, 4, 4, device=device, requires_grad=True)
F.conv2d(a, torch.ones(1, 1, 3, 3, device=device), padding=1).sum().backward()
print(a.grad.cpu())
