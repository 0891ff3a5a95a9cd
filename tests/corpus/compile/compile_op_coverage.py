# Many kinds of op inside compiled functions, so that every StableHLO
# lowering meets real XLA in the tests: running sums, arg-extrema, scatters,
# creation ops, integer and float remainders, comparisons, transcendental
# functions, reductions along axes, gathers, views, float64 and bfloat16.
import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


@torch.compile
def rows(x):
    c = torch.cumsum(x, dim=1)
    r = torch.flip(torch.cumsum(torch.flip(x, [0]), dim=0), [0])
    return c, r, x.argmax(dim=1), x.argmin(dim=0), x.amax(dim=0), x.prod(dim=1)


@torch.compile
def creation(n: int):
    a = torch.arange(n, device=device)
    b = torch.linspace(-1.0, 1.0, n, device=device)
    e = torch.eye(n, 3, device=device)
    return a * 2 + 1, b * 3, e.sum(0)


@torch.compile
def arithmetic(x, k):
    q = torch.floor_divide(x, 0.7)
    m = torch.remainder(x, 0.7)
    ki = torch.remainder(k, 3) + torch.div(k, 2, rounding_mode="floor")
    s = torch.sign(x) * torch.round(x * 3) + torch.sin(x) - torch.cos(x)
    t = torch.sigmoid(x) + torch.tanh(x) + torch.erf(x) + torch.exp(-x.abs()).log1p()
    return q, m, ki, s, t, (x > 0.2) & (k > 1), torch.where(x > 0, x, 0.5 * x)


@torch.compile
def indexing(table, idx, x):
    e = F.embedding(idx, table)
    g = torch.gather(x, 1, idx[:, :2] % 3)
    y = x.clone()
    y[:, 1] = 0.0
    z = torch.zeros(5, device=device).index_add(0, idx[0] % 5, x[0, :4])
    return e.sum(-1), g, y.t().contiguous(), z, x[1:, ::2]


@torch.compile
def precisions(a, b):
    return (a.double() @ b.double()).sum(), a.bfloat16() * 2, torch.bmm(a[None], b[None])


x = torch.randn(3, 4, device=device)
k = torch.randint(0, 9, (3, 4), device=device)
table = torch.randn(6, 3, device=device)
idx = torch.randint(0, 6, (2, 4), device=device)
for name, out in [("rows", rows(x)), ("creation", creation(5)), ("arithmetic", arithmetic(x, k)),
                  ("indexing", indexing(table, idx, x)), ("precisions", precisions(x, x.t()))]:
    for i, t in enumerate(out):
        print(name, i, t.dtype, [round(v, 4) for v in t.float().flatten().tolist()])
