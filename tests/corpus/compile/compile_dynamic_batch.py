# Automatic dynamic shapes: a function compiled with the default settings
# recompiles once when the batch size first changes and then reuses that
# dynamic graph; dynamic=True compiles once; dynamic=False once per size.
import torch

device = "tpu"
torch.manual_seed(0)
compiles = 0


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    return gm.forward


def row_sums(x):
    return (x * 2).sum(-1)


data = {b: torch.randn(b, 4, device=device) for b in [3, 5, 8, 13]}
for dynamic in [None, True, False]:
    compiles = 0
    torch.compiler.reset()
    f = torch.compile(row_sums, backend=counting_backend, dynamic=dynamic)
    counts = []
    for b, x in data.items():
        out = f(x)
        counts.append(compiles)
        assert torch.allclose(out, row_sums(x))
    print(f"dynamic={dynamic}: compiles after each batch size {counts}")
print(f(data[5]).cpu())
compiles = 0
torch.compiler.reset()
g = torch.compile(row_sums, backend=counting_backend)
for b in [1, 2, 3, 1, 7]:
    out = g(torch.ones(b, 4, device=device))
    print(f"batch {b}: {out.sum().item():.1f} compiles={compiles}")
