# float64 tensors on the tpu device: WGSL has no float64, so their ops run on the host.
import torch

device = "tpu"
a = torch.tensor([1.5, 2.25, 3.0], dtype=torch.float64, device=device)
b = a * 2
c = b.float() + 1
print(b.cpu(), c.cpu(), c.sum().item(), b.sum().item())
