# torch.random.fork_rng keeps the outer stream intact; functools.partial and wraps build a logged init helper.
import functools
import torch

device = "tpu"
torch.manual_seed(7)
first = torch.rand(3)
with torch.random.fork_rng():
    torch.manual_seed(123)
    noise = torch.rand(3)
second = torch.rand(3)
torch.manual_seed(7)
print(torch.equal(first, torch.rand(3)), torch.equal(second, torch.rand(3)))
torch.manual_seed(123)
print(torch.equal(noise, torch.rand(3)))


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        out = fn(*args, **kwargs)
        print(f"{fn.__name__}{tuple(args[1:])} -> mean {out.mean().item():.4f}")
        return out
    return wrapper


@logged
def scaled_normal(shape, std, mean=0.0):
    return torch.randn(*shape, device=device) * std + mean


torch.manual_seed(8)
small = functools.partial(scaled_normal, std=0.01)
shifted = functools.partial(scaled_normal, mean=1.0)
print(scaled_normal.__name__, small.func is scaled_normal, small.keywords)
a = small((100,))
b = shifted((100,), 0.5)
print(a.shape, round(a.std().item(), 3) < 0.02, round(b.mean().item(), 1))
total = functools.reduce(lambda acc, t: acc + t.sum(), [a, b], torch.zeros((), device=device))
print(round(total.item(), 3) == round((a.sum() + b.sum()).item(), 3))
