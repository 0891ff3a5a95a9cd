# A badly scaled regression whose gradients explode without clipping; clip_grad_norm_ keeps it stable.
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

device = "tpu"
torch.manual_seed(13)
X = torch.randn(32, 5, device=device) * torch.tensor([1.0, 10.0, 100.0, 1.0, 0.1], device=device)
y = X[:, :1] * 0.5 - X[:, 2:3] * 0.01


def train(clip=None, by_value=None, steps=12):
    torch.manual_seed(0)
    model = nn.Linear(5, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    norms, losses = [], []
    for step in range(steps):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        if clip is not None:
            norms.append(round(clip_grad_norm_(model.parameters(), max_norm=clip).item(), 2))
        if by_value is not None:
            clip_grad_value_(model.parameters(), clip_value=by_value)
        opt.step()
        losses.append(loss.item())
    return model, norms, losses


_, _, losses = train()
print("no clipping, finite:", all(l == l and l < 1e30 for l in losses), "first", f"{losses[0]:.4g}", "last", f"{losses[-1]:.4g}")
model, norms, losses = train(clip=1.0)
print("clip_grad_norm_ pre-clip norms", norms[:5])
print("clipped losses", [round(l, 3) for l in losses[::3]])
model, _, losses = train(by_value=0.5)
print("clip_grad_value_ losses", [round(l, 3) for l in losses[::3]])
print("grad within bounds", bool((model.weight.grad.abs() <= 0.5).all()))

p = nn.Parameter(torch.tensor([3.0, 4.0], device=device))
p.grad = torch.tensor([3.0, 4.0], device=device)
n = clip_grad_norm_([p], max_norm=1.0, norm_type=2.0)
print("norm", n.item(), "clipped grad", [round(v, 4) for v in p.grad.cpu().tolist()])
p.grad = torch.tensor([3.0, -4.0], device=device)
n = clip_grad_norm_(p, max_norm=10.0, norm_type=float("inf"))
print("inf norm", n.item(), "unchanged grad", p.grad.cpu().tolist())
p.grad = torch.tensor([float("nan"), 1.0], device=device)
try:
    clip_grad_norm_(p, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
