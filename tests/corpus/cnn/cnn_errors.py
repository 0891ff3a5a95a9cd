# The errors a CNN user meets, with PyTorch's types and messages: shape checks in
# convolutions, pooling and batch norm, bad arguments to the layers.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"


def attempt(label, f):
    try:
        out = f()
        print(label, "ok", tuple(out.shape))
    except Exception as e:
        print(label, type(e).__name__, e)


x = torch.randn(2, 3, 5, 5, device=device)
attempt("channels", lambda: nn.Conv2d(4, 8, 3).to(device)(x))
attempt("too small", lambda: nn.Conv2d(3, 8, 6).to(device)(x))
attempt("rank", lambda: nn.Conv2d(3, 8, 3).to(device)(x[0, 0]))
attempt("conv1d rank", lambda: nn.Conv1d(3, 8, 3).to(device)(x))
attempt("same strided", lambda: nn.Conv2d(3, 8, 3, stride=2, padding="same"))
attempt("bad string", lambda: nn.Conv2d(3, 8, 3, padding="full"))
attempt("groups in", lambda: nn.Conv2d(3, 8, 3, groups=2))
attempt("groups out", lambda: nn.Conv2d(4, 6, 3, groups=4))
attempt("F groups", lambda: F.conv2d(x, torch.randn(4, 1, 3, 3, device=device), groups=3))
attempt("F bias", lambda: F.conv2d(x, torch.randn(4, 3, 3, 3, device=device), torch.randn(3, device=device)))
attempt("F stride", lambda: F.conv2d(x, torch.randn(4, 3, 3, 3, device=device), stride=0))
attempt("F negative", lambda: F.conv2d(x, torch.randn(4, 3, 3, 3, device=device), padding=-1))
attempt("F string", lambda: F.conv2d(x, torch.randn(4, 3, 3, 3, device=device), padding="foo"))
attempt("pool pad", lambda: nn.MaxPool2d(3, padding=2)(x))
attempt("pool small", lambda: nn.MaxPool2d(6)(x))
attempt("pool rank", lambda: F.max_pool2d(x[0, 0], 2))
attempt("pool1d rank", lambda: F.max_pool1d(x, 2))
attempt("avg1d rank", lambda: F.avg_pool1d(x[0, 0, 0], 2))
attempt("bn channels", lambda: nn.BatchNorm2d(4).to(device)(x))
attempt("bn rank", lambda: nn.BatchNorm2d(3).to(device)(x[0]))
attempt("bn1d rank", lambda: nn.BatchNorm1d(3).to(device)(x))
attempt("bn one value", lambda: nn.BatchNorm1d(3).to(device)(torch.randn(1, 3, device=device)))
attempt("dropout p", lambda: nn.Dropout2d(1.5))
attempt("pad odd", lambda: F.pad(x, (1, 2, 3)))
attempt("reflect combination", lambda: F.pad(x, (5, 5), mode="reflect"))
attempt("reflect big", lambda: F.pad(x[0], (5, 5), mode="reflect"))
attempt("adaptive rank", lambda: F.adaptive_avg_pool2d(x[0, 0], 2))
attempt("unfold big", lambda: x.unfold(2, 6, 1))
attempt("fine", lambda: nn.Conv2d(3, 2, 5).to(device)(x))
