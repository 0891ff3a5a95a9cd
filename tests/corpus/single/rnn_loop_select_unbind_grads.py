# A recurrent loop over time steps (x[:, t] each step) and unbind: each step's
# gradient is a part of the input's, joined by concatenations; compared to PyTorch.
import torch
device = "tpu"
torch.manual_seed(0)
x = torch.randn(4, 7, 3, device=device, requires_grad=True)
w = torch.randn(3, 3, device=device, requires_grad=True)
h = torch.zeros(4, 3, device=device)
xs = x * 1.5
for t in range(7):
    h = torch.tanh(xs[:, t] @ w + h)
rows = list((x * 2.0).unbind(1))
loss = h.sum() + sum(r.sum() * (i + 1) for i, r in enumerate(rows))
loss.backward()
print(round(loss.item(), 4))
print(torch.round(x.grad[0], decimals=4).cpu())
print(torch.round(w.grad, decimals=4).cpu())
