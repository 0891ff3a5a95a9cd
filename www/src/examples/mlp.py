import torch
import torch.nn as nn
import torch.nn.functional as F

# A small MLP learning y = sin(x) with AdamW: forward, backward and the
# optimiser step all run on the TPU (the Summary panel lists any op that
# ran on the host instead: here only linspace, once).
torch.manual_seed(0)
device = "tpu"
model = nn.Sequential(nn.Linear(1, 64), nn.GELU(), nn.Linear(64, 1)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=0.01)
x = torch.linspace(-3, 3, 256, device=device).unsqueeze(1)
y = torch.sin(x)
for step in range(201):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step:3d}  loss {loss.item():.4f}")
