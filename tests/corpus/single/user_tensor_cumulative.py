# A small ledger: running balances with cumsum, compounding with cumprod,
# running maxima (drawdown) with cummax and cummin, and day-to-day changes with diff.
import torch

device = "tpu"

deposits = torch.tensor([100.0, -20.0, 35.0, -50.0, 10.0, 80.0], device=device)
balance = torch.cumsum(deposits, dim=0)
print("balance:", balance.tolist())
print("changes:", torch.diff(balance).tolist())
print("diff n=2:", deposits.diff(n=2).tolist())
print("diff prepend:", torch.diff(balance, prepend=torch.tensor([0.0], device=device)).tolist())

rates = torch.tensor([1.01, 1.02, 0.99, 1.03], device=device)
growth = torch.cumprod(rates, dim=0)
print("growth:", [round(v, 6) for v in growth.tolist()])
print(rates.cumprod(0).cpu())

peak = torch.cummax(balance, dim=0)
print(peak.values.tolist(), peak.indices.tolist())
drawdown = balance - peak.values
print("max drawdown:", drawdown.min().item())
low = balance.cummin(dim=0)
print(low.values.tolist(), low.indices.tolist())

# Along rows of a 2-D table.
table = torch.arange(1, 13, device=device).reshape(3, 4)
print(table.cumsum(dim=1).cpu())
print(table.cumsum(dim=0).cpu())
print(torch.cumprod(table, dim=1).cpu())
print(table.diff(dim=0).cpu())
print(table.cumsum(1).dtype, torch.cumsum(table, 0, dtype=torch.float64).dtype)

# In place, and the running mean.
x = torch.tensor([2.0, 4.0, 6.0, 8.0], device=device)
running_mean = x.cumsum(0) / torch.arange(1, 5, device=device)
print(running_mean.tolist())
x.cumsum_(0)
print(x.tolist())
print(torch.logcumsumexp(torch.tensor([0.0, 0.0, 0.0], device=device), dim=0).cpu())
