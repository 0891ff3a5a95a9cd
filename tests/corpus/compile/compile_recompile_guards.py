# Recompiles observed with a counting backend that returns gm.forward: same
# inputs reuse the graph; dtype, requires_grad and grad-mode changes each
# compile a new graph; going back to an earlier signature reuses its graph.
import torch

device = "tpu"
torch.manual_seed(0)
compiles = 0
seen = []


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    seen.append([(tuple(t.shape), str(t.dtype)) for t in example_inputs if isinstance(t, torch.Tensor)])
    return gm.forward


@torch.compile(backend=counting_backend)
def f(x):
    return (x * 2 + 1).sum()


x = torch.randn(3, 4, device=device)
print(f"first: {f(x).item():.4f} compiles={compiles}")
print(f"same again: {f(x).item():.4f} compiles={compiles}")
print(f"new values, same shape: {f(x + 1).item():.4f} compiles={compiles}")
print(f"float64: {f(x.double()).item():.4f} compiles={compiles}")
print(f"int64: {f(torch.arange(12, device=device).reshape(3, 4)).item()} compiles={compiles}")
r = f(x.clone().requires_grad_(True))
print(f"requires_grad: {r.item():.4f} grad_fn={r.grad_fn is not None} compiles={compiles}")
with torch.no_grad():
    r = f(x.clone().requires_grad_(True))
print(f"no_grad: {r.item():.4f} grad_fn={r.grad_fn is not None} compiles={compiles}")
print(f"back to float32: {f(x).item():.4f} compiles={compiles}")
print(f"back to float64: {f(x.double()).item():.4f} compiles={compiles}")
print("example inputs of first compile:", seen[0])
print("dtypes compiled:", [s[-1][1] for s in seen])
