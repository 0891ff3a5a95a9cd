# Comparing a tensor with a Python number: PyTorch rounds the number to a float
# tensor's dtype first, so float32 0.1 == 0.1 is True, and masks built from
# such comparisons (ReLU's backward, a causal mask) select what PyTorch selects.
import torch

device = "tpu"
for dt in [torch.bfloat16, torch.float16, torch.float32, torch.float64]:
    t = torch.tensor([0.1, 0.3, 1000.1, float("nan"), -0.0], dtype=dt, device=device)
    print(dt, (t == 0.1).tolist(), (t > 0.3).tolist(), (t < 0.3).tolist())
    print(dt, (t >= 1000.1).tolist(), (t != 0.0).tolist(), (t <= -0.0).tolist())

x = torch.tensor([[0.5, -1.0, 2.0], [float("inf"), 0.0, -0.25]], device=device)
mask = x > 0
print(mask.cpu())
print(torch.where(mask, x, torch.zeros_like(x)).cpu())
print(x.masked_fill(~mask, -1.5).cpu())
print(mask.float().cpu(), mask.sum().item())
scores = torch.arange(12, dtype=torch.float32, device=device).view(1, 3, 4) / 7
causal = torch.tril(torch.ones(3, 4, device=device)) == 0
print(scores.masked_fill(causal, float("-inf")).softmax(-1).cpu())
print((x == x).all().item(), (x != x).any().item())
