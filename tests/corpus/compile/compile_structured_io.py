# Compiled functions with structured inputs/outputs: keyword and default
# arguments, list/dict inputs, dict/tuple/list outputs, closures, in-place
# updates of an input, and Python side effects (appending to a list).
import torch

device = "tpu"
torch.manual_seed(0)
log = []
scale = 3.0


@torch.compile
def combine(tensors, opts, bias=1.0, *, mode="sum"):
    a, b = tensors
    h = a * opts["w"] + b * scale + bias
    log.append(mode)
    red = h.sum(dim=0) if mode == "sum" else h.amax(dim=0)
    return {"h": h, "red": red}, (h.mean(), [h.min(), h.max()])


@torch.compile
def bump_(x, k):
    x.add_(k)
    x.mul_(2)
    return x.sum()


a = torch.randn(2, 3, device=device)
b = torch.randn(2, 3, device=device)
w = torch.tensor(0.5, device=device)
d, (m, mm) = combine([a, b], {"w": w})
print(sorted(d.keys()), type(d["red"]).__name__, type(mm).__name__, len(mm))
print(d["red"].cpu())
print(f"mean {m.item():.4f} min {mm[0].item():.4f} max {mm[1].item():.4f}")
d2, _ = combine([a, b], {"w": w}, bias=0.0, mode="max")
print(d2["red"].cpu())
print("side effects:", log)
t = torch.ones(2, 2, device=device)
s = bump_(t, 1)
print(f"returned {s.item():.1f}, input now:")
print(t.cpu())
