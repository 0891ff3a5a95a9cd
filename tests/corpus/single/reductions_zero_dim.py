# Reductions over dim 0 (or -1) of a 0-d tensor, as a loss or a mean of a mean
# gives one: PyTorch treats it as one element along that dim, and the result
# stays 0-d, keepdim or not (found by the fuzzer: `raw.mean().mean(0)`).
import torch

device = "tpu"
x = torch.tensor(3.0, device=device)
print(x.mean(0).cpu())
print(x.mean(-1, keepdim=True).cpu())
print(x.sum(0).cpu(), x.sum(0, keepdim=True).shape)
print(x.amax(0).cpu(), x.amin(-1).cpu())
print(x.mean(dim=(0,)).cpu())
print(torch.tensor(4, device=device).sum(0).cpu())

y = torch.tensor(2.0, device=device, requires_grad=True)
z = y.mean(0) * 3 + y.sum(-1)
z.backward()
print(z.item(), y.grad.cpu())

data = torch.arange(6.0, device=device).reshape(2, 3)
m = data.mean()
print((m - m.mean(0)).cpu(), m.mean(0, keepdim=True).shape)
