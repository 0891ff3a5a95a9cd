# Transposed convolutions as DCGAN's generator stacks them (kernel 4, stride
# 2, padding 1, from a 1x1 latent), with groups, dilation, output_padding and
# output_size; the module's parameters, init stream and repr; gradients; and
# the checks PyTorch makes.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
gen = nn.Sequential(
    nn.ConvTranspose2d(8, 6, 4, 1, 0, bias=False),
    nn.BatchNorm2d(6),
    nn.ReLU(True),
    nn.ConvTranspose2d(6, 3, 4, 2, 1, bias=False),
    nn.Tanh(),
).to(device)
print(gen)
z = torch.randn(2, 8, 1, 1, device=device)
img = gen(z)
print(tuple(img.shape), [round(v, 4) for v in img[0, 0, 0].tolist()])
loss = img.square().mean()
loss.backward()
print(round(loss.item(), 5), round(gen[0].weight.grad.abs().sum().item(), 4))

up = nn.ConvTranspose2d(4, 6, kernel_size=3, stride=2, padding=1, output_padding=1, groups=2, dilation=1).to(device)
print(up, tuple(up.weight.shape))
x = torch.randn(1, 4, 5, 5, device=device)
y = up(x)
print(tuple(y.shape), [round(v, 4) for v in y[0, 5, 2].tolist()])
print(tuple(up(x, output_size=[9, 9]).shape), tuple(up(x, output_size=(1, 6, 10, 10)).shape))

w = torch.randn(3, 2, 3, 3, device=device)
xx = torch.randn(1, 3, 4, 4, device=device)
print([round(v, 4) for v in F.conv_transpose2d(xx, w, stride=2, padding=2, dilation=2)[0, 1, 1].tolist()])
print(tuple(F.conv_transpose2d(xx[0], w).shape))
line = nn.ConvTranspose1d(2, 3, 5, stride=3, padding=1).to(device)
print(line, [round(v, 4) for v in line(torch.randn(1, 2, 4, device=device))[0, 2].tolist()])
print(F.conv_transpose2d(xx, w).grad_fn.name() if xx.requires_grad else type(F.conv_transpose2d(xx, w)).__name__)

for bad in [lambda: up(x, output_size=[12, 12]),
            lambda: F.conv_transpose2d(xx, torch.randn(2, 2, 3, 3, device=device)),
            lambda: nn.ConvTranspose2d(2, 2, 3, padding_mode="reflect")]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, str(e)[:90])
