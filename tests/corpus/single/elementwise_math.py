# Elementwise functions on the tpu device: exp, log, sqrt, tanh, sigmoid, relu, ...
import torch

device = "tpu"
torch.manual_seed(3)
x = torch.randn(3, 4, device=device)
print(torch.exp(x).cpu())
print(torch.log(x.abs() + 1).cpu())
print(torch.sqrt(x * x).cpu())
print(torch.tanh(x).cpu(), torch.sigmoid(x).cpu(), sep="\n")
print(torch.relu(x).cpu(), (-x).cpu(), x.abs().cpu(), sep="\n")
print(torch.sin(x).cpu(), x.cos().cpu(), x.exp().log().cpu(), sep="\n")
y = torch.ones(2, 2, device=device) * 0.5
print(torch.sigmoid(y).sum().item(), torch.tanh(y * 4).cpu(), torch.exp(y @ y).cpu())
print(torch.tensor([1, -2, 3]).abs(), torch.tensor([1, 2]).exp(), torch.tensor([-1, 4]).relu())
