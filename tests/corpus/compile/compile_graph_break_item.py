# Graph breaks from .item() and float() inside a compiled function: results
# still match eager, a counting backend sees 2 graphs per break, and
# torch._dynamo.explain reports graph_count/graph_break_count/break_reasons.
import torch
import torch._dynamo

device = "tpu"
torch.manual_seed(0)
graphs = 0


def counting_backend(gm, example_inputs):
    global graphs
    graphs += 1
    return gm.forward


def normalize(x):
    y = x * 2
    total = y.sum().item()
    return y / total


def two_breaks(x):
    a = x.sum().item()
    b = float(x.mean())
    return x * a + b


x = torch.rand(2, 3, device=device) + 0.5
f = torch.compile(normalize, backend=counting_backend)
print(f(x).cpu())
print(f"graphs after call 1: {graphs}")
f(x)
print(f"graphs after call 2: {graphs}")
print(f"matches eager: {torch.allclose(f(x), normalize(x))}")
print(f"two_breaks: {torch.compile(two_breaks)(x).sum().item():.4f} eager {two_breaks(x).sum().item():.4f}")
for fn in [normalize, two_breaks]:
    torch._dynamo.reset()
    e = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__}: graph_count={e.graph_count} graph_break_count={e.graph_break_count} reasons={len(e.break_reasons)}")
    print("  first reason line:", e.break_reasons[0].reason.splitlines()[0])
