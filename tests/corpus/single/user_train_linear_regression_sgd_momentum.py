# Fit y = 3x - 2 (plus noise) with nn.Linear, MSELoss and SGD with momentum.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)

x = torch.linspace(-1, 1, 64).unsqueeze(1)
y = 3.0 * x - 2.0 + 0.1 * torch.randn(64, 1)
x, y = x.to(device), y.to(device)

model = nn.Linear(1, 1).to(device)
print(model)
print("initial weight", round(model.weight.item(), 4), "bias", round(model.bias.item(), 4))

criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
print(optimizer)

for epoch in range(1, 61):
    optimizer.zero_grad()
    pred = model(x)
    loss = criterion(pred, y)
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d}  loss {loss.item():.5f}  w {model.weight.item():.4f}  b {model.bias.item():.4f}")

with torch.no_grad():
    test = torch.tensor([[0.0], [0.5], [2.0]], device=device)
    print("predictions", [round(v, 3) for v in model(test).squeeze(1).cpu().tolist()])
    residual = (model(x) - y).abs().max()
print("max residual", round(residual.item(), 3))
print("momentum buffers", [tuple(optimizer.state[p]["momentum_buffer"].shape) for p in model.parameters()])
