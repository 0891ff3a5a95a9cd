# Basic indexing: ints, slices with steps, negative indices, None, Ellipsis.
import torch

device = "tpu"

x = torch.arange(60.0, device=device).reshape(3, 4, 5)
print(x[1].cpu())
print(x[2, 3].cpu(), x[0, 1, 2].item(), x[-1, -1, -1].item())
print(x[0, :, 1].cpu())
print(x[:, 1:3, ::2].cpu())
print(x[1, ::3, 0].cpu())
print(x[-2:, -3:-1, -1].cpu())
print(x[..., 0].cpu())
print(x[0, ...].shape, x[..., 1:3].shape, x[1, ..., 2].cpu())
print(x[None].shape, x[:, None].shape, x[..., None].shape)
print(x[0, None, :, None, 0].shape)
print(x[1:2].shape, x[1:1].shape, x[5:].shape)
print(x[:, 0, 1:4:2].cpu())
v = torch.arange(10, device=device)
print(v[::3].cpu(), v[1::4].cpu(), v[-3:].cpu(), v[:-7].cpu())
print(v[2:8:2].tolist(), v[-1].item(), v[3].dim())
print(x[2][1][4].item(), x[:][0].shape)
