# int64 tensors on the tpu device, and float32 ones made from them.
import torch

a = torch.tensor([1, 2, 3], device="tpu")
b = a * 2
c = b.float() + 1
print(b.cpu(), c.cpu(), c.sum().item(), b.sum().item())
