# torch.compile on plain functions: the decorator with and without arguments,
# torch.compile(fn), backend="eager"/"aot_eager"/"inductor", and that the
# compiled results match eager ones (elementwise, matmul, reductions, softmax).
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


def body(x, w):
    h = torch.tanh(x @ w) * 2 + 1
    return F.softmax(h, dim=-1), h.sum(dim=0), h.mean()


@torch.compile
def plain(x, w):
    return body(x, w)


@torch.compile()
def called(x, w):
    return body(x, w)


@torch.compile(fullgraph=True)
def full(x, w):
    return body(x, w)


x = torch.randn(4, 3, device=device)
w = torch.randn(3, 5, device=device)
ref = body(x, w)
fns = {"plain": plain, "called": called, "full": full}
for backend in ["eager", "aot_eager", "inductor"]:
    fns[backend] = torch.compile(body, backend=backend)
for name, fn in fns.items():
    out = fn(x, w)
    same = all(torch.allclose(a, b, atol=1e-5) for a, b in zip(out, ref))
    print(f"{name}: matches eager {same}, mean {out[2].item():.4f}")
print(plain(x, w)[0].cpu())
print(plain(x, w)[1].cpu())
print(f"callable name kept: {plain.__name__}, {callable(plain)}")
