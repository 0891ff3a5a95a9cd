# Recompiles from Python arguments and module state, counted with a custom
# backend: an int argument becomes dynamic after its second value, a float
# argument too (a fresh function: that memory is per code object), bools and strings specialize per value, and a module's
# train()/eval() switch compiles once per mode.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
compiles = 0


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    return gm.forward


def scale(x, n):
    return x * n + 1


def shift(x, s):
    return x * s - 1


x = torch.randn(4, device=device)
fi = torch.compile(scale, backend=counting_backend)
for n in [2, 3, 4, 5, 3]:
    print(f"int {n}: {fi(x, n).sum().item():.4f} compiles={compiles}")
compiles = 0
ff = torch.compile(shift, backend=counting_backend)
for s in [0.5, 1.5, 2.5, 0.5]:
    print(f"float {s}: {ff(x, s).sum().item():.4f} compiles={compiles}")
compiles = 0
fb = torch.compile(lambda t, flag: t + 1 if flag else t - 1, backend=counting_backend)
for flag in [True, False, True, False]:
    print(f"bool {flag}: {fb(x, flag).sum().item():.4f} compiles={compiles}")
compiles = 0
model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)).to(device)
cm = torch.compile(model, backend=counting_backend)
inp = torch.ones(2, 4, device=device)
for mode in ["eval", "eval", "train", "eval", "train"]:
    getattr(cm, mode)()
    out = cm(inp)
    print(f"{mode}: training={cm.training} compiles={compiles}")
