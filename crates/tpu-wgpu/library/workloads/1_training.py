# The precompiled kernel library's own workload: the common patterns of PyTorch
# training, forward and backward, at tiny sizes (the other workloads in this
# folder are copies of the page's examples and of `tpu bench`'s transformer
# block). A fused kernel's WGSL depends on its pattern and ranks, never on
# sizes, so what these programs compile serves the same patterns at any size.
# `../kernels.jsonl` holds the fused kernels they make in Fused mode, as IR
# (regenerate: UPDATE_EXPECT=1 cargo test -p tpu-cli --test fusion_plans
# library); the wgpu backend generates their WGSL and compiles them, with the
# common per-op kernels, in the background as it starts.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


# An MLP classifier: linear + bias + ReLU, cross-entropy, AdamW.
mlp = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).to(device)
opt = torch.optim.AdamW(mlp.parameters(), lr=1e-3)
x = torch.randn(6, 8, device=device)
y = torch.randint(0, 4, (6,), device=device)
for _ in range(2):
    loss = F.cross_entropy(mlp(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())

# Regression: tanh and sigmoid, MSE, SGD with momentum, Adam.
reg = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 16), nn.Sigmoid(), nn.Linear(16, 1)).to(device)
for opt in [torch.optim.SGD(reg.parameters(), lr=0.1, momentum=0.9), torch.optim.Adam(reg.parameters())]:
    loss = F.mse_loss(reg(x), torch.randn(6, 1, device=device))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())

# Softmax and log-softmax over 2-D rows, layer norm over 2-D rows.
z = torch.randn(6, 8, device=device, requires_grad=True)
s = F.softmax(z, dim=-1).sum() + F.log_softmax(z, dim=-1).sum() + F.layer_norm(z, (8,)).pow(2).sum()
s.backward()
print(s.item())
