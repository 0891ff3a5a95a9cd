# A convolution whose kernel has a zero-size dimension: the layers accept it,
# and the forward raises PyTorch's RuntimeError (the reference matmul once
# panicked on the empty contraction it lowers to).
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


def attempt(label, f):
    try:
        out = f()
        print(label, "ok", tuple(out.shape))
        print(out)
    except Exception as e:
        print(label, type(e).__name__, e)


conv = nn.Conv1d(2, 3, 0).to(device)
print("Conv1d(2, 3, 0) weight", tuple(conv.weight.shape))
attempt("Conv1d k=0", lambda: conv(torch.randn(1, 2, 5, device=device)))
attempt("Conv1d k=0 unbatched", lambda: conv(torch.randn(2, 5, device=device)))
attempt("Conv2d (0, 3)", lambda: nn.Conv2d(2, 3, (0, 3)).to(device)(torch.randn(1, 2, 4, 4, device=device)))
attempt("Conv2d (3, 0)", lambda: nn.Conv2d(2, 3, (3, 0)).to(device)(torch.randn(1, 2, 4, 4, device=device)))
attempt("F.conv1d k=0", lambda: F.conv1d(torch.randn(1, 2, 5, device=device), torch.randn(3, 2, 0, device=device)))
attempt("F.conv2d k=0", lambda: F.conv2d(torch.randn(1, 2, 4, 4, device=device), torch.randn(3, 2, 0, 0, device=device)))
