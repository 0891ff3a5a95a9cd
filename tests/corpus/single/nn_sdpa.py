# F.scaled_dot_product_attention with and without is_causal, compared against a manual implementation, with grads.
import math
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(21)

q = torch.randn(1, 2, 4, 3, device=device, requires_grad=True)
k = torch.randn(1, 2, 4, 3, device=device, requires_grad=True)
v = torch.randn(1, 2, 4, 3, device=device, requires_grad=True)
out = F.scaled_dot_product_attention(q, k, v)
print(out.shape)
print(out[0, 0].detach().cpu())
att = (q @ k.transpose(-2, -1)) / math.sqrt(3)
manual = att.softmax(-1) @ v
print(torch.allclose(out.cpu(), manual.cpu(), atol=1e-5))
causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(causal[0, 1].detach().cpu())
print(torch.allclose(causal[:, :, 0].cpu(), v[:, :, 0].cpu(), atol=1e-6))
mask = torch.triu(torch.ones(4, 4, device=device), diagonal=1).bool()
manual_c = att.masked_fill(mask, float("-inf")).softmax(-1) @ v
print(torch.allclose(causal.cpu(), manual_c.cpu(), atol=1e-5))
(causal.pow(2).sum() + out.sum()).backward()
print(q.grad[0, 0].cpu())
print(k.grad[0, 1].cpu())
print(f"{v.grad.sum().item():.5f}")
x = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], device=device)
print(F.scaled_dot_product_attention(x, x, x, is_causal=True).cpu())
print(F.scaled_dot_product_attention(x, x, x).cpu())
