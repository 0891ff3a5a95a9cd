# A copy of the page's example `www/src/examples/hello.py`, for the fused kernels it makes
# (the library is derived from this folder alone, so editing the page's example
# changes nothing here).
import torch

# Tensors on the TPU: each op below is a kernel (see the Kernels panel).
x = torch.ones(2, 3, device="tpu")
y = (x * 2 + 1) @ torch.ones(3, 2, device="tpu")
print(y)
print(y.sum().item())
