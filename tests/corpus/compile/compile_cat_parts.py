# torch.cat inside a compiled function (a StableHLO concatenate), with a cast
# part, and a split whose gradient is one concatenation; compared to eager.
import torch

device = "tpu"
torch.manual_seed(0)


def f(a, b):
    return torch.cat([a * 2, b, a.int().float()], dim=1).relu()


g = torch.compile(f)
a = torch.randn(2, 3, device=device)
b = torch.randn(2, 4, device=device)
print(torch.round(g(a, b), decimals=4).cpu())
print(torch.equal(g(a, b), f(a, b)))

w = torch.randn(3, 6, device=device, requires_grad=True)


def h(x):
    p, q, r = (x * 1.5).split(2, dim=1)
    return (p * q).sum() + r.tanh().sum()


loss = torch.compile(h)(w)
loss.backward()
print(round(loss.item(), 4))
print(torch.round(w.grad, decimals=4).cpu())
