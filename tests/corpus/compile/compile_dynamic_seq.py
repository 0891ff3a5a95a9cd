# Dynamic sequence length with a 3-D input: attention-like scores over
# (batch, seq, dim) with changing seq and batch; compile counts for the
# default (automatic dynamic), dynamic=True and dynamic=False, and results.
import math
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
compiles = 0


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    return gm.forward


def self_attn(x):
    scores = x @ x.transpose(1, 2) / math.sqrt(x.size(-1))
    return (F.softmax(scores, dim=-1) @ x).mean(dim=1)


shapes = [(2, 4), (2, 6), (2, 9), (3, 9), (4, 11)]
inputs = [torch.randn(b, s, 8, device=device) for b, s in shapes]
for dynamic in [None, True, False]:
    compiles = 0
    torch.compiler.reset()
    f = torch.compile(self_attn, backend=counting_backend, dynamic=dynamic)
    counts = []
    for x in inputs:
        out = f(x)
        assert torch.allclose(out, self_attn(x), atol=1e-5)
        counts.append(compiles)
    print(f"dynamic={dynamic}: compiles {counts}")
fi = torch.compile(self_attn, dynamic=True)
for x in inputs[:3]:
    out = fi(x)
    print(f"seq {x.shape[1]}: {tuple(out.shape)} sum {out.sum().item():.4f}")
print(fi(inputs[3])[0].cpu())
