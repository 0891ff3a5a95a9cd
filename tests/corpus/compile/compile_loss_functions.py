# Compiled loss computations: cross_entropy (with label smoothing and
# ignore_index), log_softmax + nll_loss, mse_loss, and gradients flowing
# through a compiled loss back to leaf tensors.
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


@torch.compile
def losses(logits, target, pred, goal):
    ce = F.cross_entropy(logits, target)
    ls = F.cross_entropy(logits, target, label_smoothing=0.1)
    ig = F.cross_entropy(logits, target, ignore_index=2)
    nll = F.nll_loss(F.log_softmax(logits, dim=-1), target)
    mse = F.mse_loss(pred, goal)
    return ce, ls, ig, nll, mse


logits = torch.randn(6, 4, device=device, requires_grad=True)
target = torch.tensor([0, 2, 1, 3, 2, 0], device=device)
pred = torch.randn(3, 2, device=device, requires_grad=True)
goal = torch.randn(3, 2, device=device)
ce, ls, ig, nll, mse = losses(logits, target, pred, goal)
for name, v in [("ce", ce), ("smooth", ls), ("ignore", ig), ("nll", nll), ("mse", mse)]:
    print(f"{name}: {v.item():.4f}")
(ce + mse).backward()
print(logits.grad.cpu())
print(pred.grad.cpu())
g_ref = torch.autograd.grad(F.cross_entropy(logits, target), logits)[0]
print(f"grad matches eager: {torch.allclose(logits.grad, g_ref, atol=1e-6)}")
