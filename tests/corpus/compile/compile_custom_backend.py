# A custom backend receives a GraphModule and example inputs: it can inspect
# input shapes/dtypes, and return gm.forward, gm itself or a wrapper around
# it; torch._dynamo.utils.counters["stats"]["unique_graphs"] counts graphs.
import torch
import torch.nn.functional as F
from torch._dynamo.utils import counters

device = "tpu"
torch.manual_seed(0)
calls = []


def inspecting_backend(gm, example_inputs):
    shapes = [tuple(t.shape) for t in example_inputs]
    dtypes = [str(t.dtype).replace("torch.", "") for t in example_inputs]
    print(f"compiling: callable={callable(gm)} inputs={shapes} dtypes={dtypes}")

    def run(*args):
        calls.append(len(args))
        return gm.forward(*args)

    return run


def returns_gm(gm, example_inputs):
    return gm


def mlp(x, w1, w2):
    return F.relu(x @ w1) @ w2


x = torch.randn(4, 3, device=device)
w1 = torch.randn(3, 5, device=device)
w2 = torch.randn(5, 2, device=device)
f = torch.compile(mlp, backend=inspecting_backend)
out = f(x, w1, w2)
f(x, w1, w2)
print(f"runs through wrapper: {len(calls)}, args per run: {calls[0]}")
print(f"matches eager: {torch.allclose(out, mlp(x, w1, w2))}")
print(out.cpu())
g = torch.compile(mlp, backend=returns_gm)
print(f"gm as compiled fn: {torch.allclose(g(x, w1, w2), out)}")
f(x.double(), w1.double(), w2.double())
print(f"unique_graphs: {counters['stats']['unique_graphs']}")
