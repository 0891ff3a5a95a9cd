# A training loop instrumented the way people debug one: a finiteness guard on
# every loss, activation statistics per layer, dead-ReLU fractions, the
# learning rate and parameter change per epoch, all printed compactly.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(11)
torch.set_printoptions(precision=3)

x = torch.randn(64, 5, device=device)
y = (x @ torch.tensor([1.0, -2.0, 0.5, 0.0, 3.0], device=device)).unsqueeze(1) + 0.1

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
loss_fn = nn.MSELoss()

def activation_report(inputs):
    h = inputs
    rows = []
    for i, layer in enumerate(model):
        h = layer(h)
        if isinstance(layer, nn.ReLU):
            dead = (h == 0).float().mean().item()
            rows.append(f"relu{i} dead={dead:.2f}")
        else:
            rows.append(f"{type(layer).__name__.lower()}{i} mean={h.mean().item():+.3f} std={h.std().item():.3f}")
    return rows

history = []
for epoch in range(4):
    start = [p.detach().clone() for p in model.parameters()]
    for i in range(0, 64, 16):
        opt.zero_grad()
        loss = loss_fn(model(x[i:i + 16]), y[i:i + 16])
        assert torch.isfinite(loss), f"loss became {loss.item()}"
        loss.backward()
        opt.step()
    sched.step()
    with torch.no_grad():
        full = loss_fn(model(x), y).item()
        moved = sum((p - s).norm().item() for p, s in zip(model.parameters(), start))
    history.append(full)
    print(f"epoch {epoch} loss {full:.4f} lr {opt.param_groups[0]['lr']:.4f} moved {moved:.4f}")
    if epoch % 2 == 1:
        with torch.no_grad():
            for row in activation_report(x):
                print("   ", row)

print("improved every epoch:", all(a > b for a, b in zip(history, history[1:])))
print("best epoch:", min(range(len(history)), key=lambda e: history[e]))
with torch.no_grad():
    pred = model(x[:4])
print(torch.cat([pred, y[:4]], dim=1).cpu())
print(model[0].bias.detach().cpu())
print({n: p.grad.abs().mean().item() > 0 for n, p in model.named_parameters()})
bad = torch.tensor([1.0, float("nan")], device=device).mean()
try:
    assert torch.isfinite(bad), f"loss became {bad.item()}"
except AssertionError as e:
    print("AssertionError:", e)
