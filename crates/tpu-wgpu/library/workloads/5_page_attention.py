# A copy of the page's example `www/src/examples/attention.py`, for the fused kernels it makes
# (the library is derived from this folder alone, so editing the page's example
# changes nothing here).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

# One attention block: layer norm, q/k/v projections, causal attention over
# 4 heads, the output projection and a residual.
torch.manual_seed(0)
device = "tpu"
B, T, C, H = 2, 16, 64, 4
x = torch.randn(B, T, C, device=device)
ln = nn.LayerNorm(C).to(device)
qkv = nn.Linear(C, 3 * C).to(device)
proj = nn.Linear(C, C).to(device)
q, k, v = qkv(ln(x)).split(C, dim=2)
q = q.view(B, T, H, C // H).transpose(1, 2)
k = k.view(B, T, H, C // H).transpose(1, 2)
v = v.view(B, T, H, C // H).transpose(1, 2)
att = (q @ k.transpose(-2, -1)) / math.sqrt(C // H)
mask = torch.triu(torch.ones(T, T, device=device), diagonal=1).bool()
att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
out = x + proj((att @ v).transpose(1, 2).reshape(B, T, C))
print(out.shape)
print(round(out.sum().item(), 3))
