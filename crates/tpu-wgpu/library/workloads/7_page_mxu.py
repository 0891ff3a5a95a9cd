# A copy of the page's example `www/src/examples/mxu.py`, for the fused kernels it makes
# (the library is derived from this folder alone, so editing the page's example
# changes nothing here).
import torch

# The MXU is a 128x128 (v4, v5e, v5p) or 256x256 (v6e on) array: matmul
# dimensions are padded to its width. With a head dimension of 64, q @ k^T
# contracts over 64 and fills half of a 128-wide MXU; with 128 it fills all
# of it. The Kernels and Chip panels show each kernel's MXU use and the hint.
torch.manual_seed(0)
for head_dim in (64, 128):
    q = torch.randn(8, 128, head_dim, device="tpu")
    k = torch.randn(8, 128, head_dim, device="tpu")
    scores = q @ k.transpose(1, 2)
    print(f"head_dim {head_dim}: scores {tuple(scores.shape)}")
