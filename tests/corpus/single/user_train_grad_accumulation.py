# Gradient accumulation: four micro-batches of 4 give the same update as one batch of 16.
import copy
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(123)
X = torch.randn(16, 6, device=device)
y = torch.randn(16, 2, device=device)

base = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 2)).to(device)
full = copy.deepcopy(base)
accum = copy.deepcopy(base)
opt_full = torch.optim.RMSprop(full.parameters(), lr=0.01, momentum=0.9)
opt_accum = torch.optim.RMSprop(accum.parameters(), lr=0.01, momentum=0.9)
loss_fn = nn.MSELoss()
accum_steps = 4

for step in range(3):
    opt_full.zero_grad()
    loss_full = loss_fn(full(X), y)
    loss_full.backward()
    opt_full.step()

    opt_accum.zero_grad()
    running = 0.0
    for micro in range(accum_steps):
        xb = X[micro * 4:(micro + 1) * 4]
        yb = y[micro * 4:(micro + 1) * 4]
        loss = loss_fn(accum(xb), yb) / accum_steps
        loss.backward()
        running += loss.item()
    opt_accum.step()
    print(f"step {step}: full-batch loss {loss_full.item():.5f} accumulated {running:.5f}")

same = all(torch.allclose(a, b, atol=1e-6) for a, b in zip(full.parameters(), accum.parameters()))
print("parameters agree:", same)
diff = max((a - b).abs().max().item() for a, b in zip(full.parameters(), accum.parameters()))
print("max difference below 1e-5:", diff < 1e-5)
print("square_avg keys", sorted(opt_accum.state[accum[0].weight].keys()))
print("step count", opt_accum.state[accum[0].weight]["step"])

x = torch.ones(3, requires_grad=True)
for k in range(3):
    (x * (k + 1)).sum().backward()
print("accumulated grad", x.grad.tolist())
x.grad = None
(x ** 2).sum().backward()
print("after reset", x.grad.tolist())
