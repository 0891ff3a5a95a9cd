# Manual mini-batching: shuffle with torch.randperm each epoch and slice the batches out.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(7)

n, d = 50, 4
true_w = torch.tensor([1.5, -2.0, 0.5, 3.0])
X = torch.randn(n, d)
y = X @ true_w + 0.3
X, y = X.to(device), y.to(device)

model = nn.Sequential(nn.Linear(d, 1), nn.Flatten(0)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
batch_size = 16
print("batches per epoch", (n + batch_size - 1) // batch_size)

for epoch in range(8):
    perm = torch.randperm(n)
    if epoch == 0:
        print("first permutation head", perm[:10].tolist())
    total, count = 0.0, 0
    for start in range(0, n, batch_size):
        idx = perm[start:start + batch_size].to(device)
        xb, yb = X[idx], y[idx]
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        count += len(idx)
    print(f"epoch {epoch}: mean loss {total / count:.4f} over {count} samples")

w = model[0].weight.detach().cpu().squeeze()
print("learned w", [round(v, 2) for v in w.tolist()], "b", round(model[0].bias.item(), 2))
print("last batch size", len(idx), "grad is None?", model[0].weight.grad is None)
opt.zero_grad(set_to_none=True)
print("after zero_grad(set_to_none=True):", model[0].weight.grad)
