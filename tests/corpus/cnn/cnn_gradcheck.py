# Every CNN op's gradient against central finite differences in float64: for
# L = sum(f(x) * w), autograd's dL/dx must match (L(x + h) - L(x - h)) / 2h at
# every element of x (and of the weight, for convolutions and batch norm).
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(9)


def check(name, f, *inputs):
    inputs = [t.to(device=device, dtype=torch.float64).requires_grad_() for t in inputs]
    out = f(*inputs)
    w = torch.randn(out.shape, dtype=torch.float64).to(device)
    (out * w).sum().backward()
    worst = 0.0
    h = 1e-6
    with torch.no_grad():
        for t in inputs:
            flat = t.view(-1)
            grad = t.grad.view(-1).tolist()
            for i in range(flat.numel()):
                keep = flat[i].item()
                flat[i] = keep + h
                up = (f(*inputs) * w).sum().item()
                flat[i] = keep - h
                down = (f(*inputs) * w).sum().item()
                flat[i] = keep
                worst = max(worst, abs((up - down) / (2 * h) - grad[i]))
    print(name, tuple(out.shape), worst < 1e-6)


x = torch.randn(2, 2, 5, 4)
check("conv2d", lambda a, k: F.conv2d(a, k, stride=(2, 1), padding=1, dilation=(1, 2)), x, torch.randn(3, 2, 2, 2))
check("conv2d groups", lambda a, k: F.conv2d(a, k, padding="same", groups=2), x, torch.randn(4, 1, 3, 2))
check("conv1d", lambda a, k: F.conv1d(a, k, stride=2, padding=2, dilation=2), torch.randn(2, 2, 7), torch.randn(3, 2, 3))
check("max_pool2d", lambda a: F.max_pool2d(a, 3, stride=2, padding=1, ceil_mode=True), x)
check("max_pool1d", lambda a: F.max_pool1d(a, 2, dilation=2), torch.randn(2, 2, 7))
check("avg_pool2d", lambda a: F.avg_pool2d(a, 3, stride=2, padding=1, count_include_pad=False), x)
check("avg_pool1d", lambda a: F.avg_pool1d(a, 3, stride=2, ceil_mode=True), torch.randn(2, 2, 8))
check("adaptive_avg_pool2d", lambda a: F.adaptive_avg_pool2d(a, (3, 3)), x)
check("adaptive_max_pool2d", lambda a: F.adaptive_max_pool2d(a, (2, 3)), x)
check("batch_norm train", lambda a, g, b: F.batch_norm(a, None, None, g, b, training=True), x, torch.rand(2) + 0.5,
      torch.randn(2))
check("batch_norm eval", lambda a, g: F.batch_norm(a, torch.tensor([0.1, -0.2], dtype=torch.float64).to(device),
                                                   torch.tensor([1.5, 0.7], dtype=torch.float64).to(device), g,
                                                   training=False), x, torch.rand(2) + 0.5)
check("pad reflect", lambda a: F.pad(a, (2, 1, 1, 2), mode="reflect"), x)
check("pad constant", lambda a: F.pad(a, (1, -1, 2, 0), value=0.5), x)
check("unfold", lambda a: a.unfold(2, 3, 1).unfold(3, 2, 2), x)
