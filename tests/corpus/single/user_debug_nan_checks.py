# Hunting NaNs and infinities: where they come from (log of zero, 0/0,
# overflow), how to find them (isnan, isinf, isfinite(...).all()), and the
# usual repairs (clamping, nan_to_num, eps in the denominator).
import torch

device = "tpu"
torch.manual_seed(1)

x = torch.tensor([1.0, 0.0, -1.0, 4.0], device=device)
checks = {
    "log": torch.log(x),
    "sqrt": torch.sqrt(x),
    "div": x / torch.zeros(4, device=device),
    "exp": torch.exp(x.abs() * 100),
    "zero/zero": torch.zeros(4, device=device) / torch.zeros(4, device=device),
}
for name, t in checks.items():
    print(f"{name:10s} {t.cpu()} finite={torch.isfinite(t).all().item()} "
          f"nan={torch.isnan(t).sum().item()} inf={torch.isinf(t).sum().item()}")

bad = checks["log"]
print(torch.isnan(bad).any().item(), bad.isnan().nonzero().flatten().tolist(), bad.isinf().tolist())
print(torch.nan_to_num(bad).tolist())
print(torch.nan_to_num(bad, nan=0.0, posinf=1.0, neginf=-1.0).tolist())
print(torch.log(x.clamp(min=1e-6)).tolist())
print(torch.where(torch.isfinite(bad), bad, torch.zeros_like(bad)).cpu())

# A loss that becomes NaN and a guard that stops the loop.
w = torch.tensor([2.0], device=device, requires_grad=True)
for step in range(5):
    loss = torch.log(1.0 - w * 0.3 * step).sum()
    if not torch.isfinite(loss):
        print("step", step, "loss is not finite:", loss.item())
        break
    loss.backward()
    print("step", step, round(loss.item(), 5), round(w.grad.item(), 5))
    w.grad = None

# NaN propagates through reductions but max/min and comparisons behave differently.
v = torch.tensor([1.0, float("nan"), 3.0], device=device)
print(v.sum().item(), v.mean().item(), v.max().item(), (v > 2).tolist(), (v == v).tolist())
print(torch.nansum(v).item(), torch.nanmean(v).item())
print(float("nan") == float("nan"), torch.tensor(float("inf"), device=device).item() > 1e38)

# Softmax on huge logits is fine; the naive formula overflows.
logits = torch.tensor([1000.0, 1001.0, 1002.0], device=device)
naive = logits.exp() / logits.exp().sum()
print(naive.cpu(), torch.softmax(logits, dim=0).cpu())
eps = 1e-8
norm = torch.zeros(3, device=device)
print((norm / (norm.norm() + eps)).tolist(), torch.isfinite(norm / norm.norm()).all().item())
