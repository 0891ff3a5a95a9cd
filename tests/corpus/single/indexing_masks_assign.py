# Advanced indexing: bool masks, index tensors, and assignment through indexing.
import torch

device = "tpu"

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0], [7.0, 8.0, -9.0]], device=device)
mask = x > 0
print(mask.cpu())
print(x[mask].cpu())
print(x[x < -3].cpu(), x[mask].shape)
rows = torch.tensor([True, False, True], device=device)
print(x[rows].cpu())
idx = torch.tensor([2, 0], device=device)
print(x[idx].cpu())
print(x[:, idx].cpu())
print(x[idx, torch.tensor([1, 2], device=device)].cpu())
print(x[torch.tensor([[0, 1], [2, 2]], device=device)].shape)
print(x[[0, 2]].cpu(), x[1, [0, 2]].cpu())
y = torch.zeros(3, 4, device=device)
y[1] = 5
y[:, 0] += 1
y[2, 1:3] = torch.tensor([7.0, 8.0], device=device)
y[0, -1] = -3.0
print(y.cpu())
y[y > 4] = 0
print(y.cpu())
z = torch.arange(6.0, device=device)
z[torch.tensor([1, 4], device=device)] = -1.0
z[z < 0] += 10
print(z.cpu())
w = torch.arange(12, device=device).reshape(3, 4)
w[:, 1] = w[:, 2] * 10
w[w % 2 == 1] = -1
print(w.cpu())
b = torch.ones(2, 3, device=device)
b[..., 1] = 0.5
b[:, None, 2] *= 4
print(b.cpu())
