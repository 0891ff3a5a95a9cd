# The grad modes as decorators, called and bare, and set_grad_enabled in its
# three forms (a call, a `with` block, a decorator).
import torch

device = "tpu"
x = torch.ones(2, device=device, requires_grad=True)


@torch.no_grad()
def double(a):
    return a * 2


@torch.no_grad
def triple(a):
    return a * 3


@torch.inference_mode()
def halve(a):
    return a / 2


@torch.inference_mode
def negate(a):
    return -a


@torch.enable_grad()
def square(a):
    return a * a


@torch.set_grad_enabled(False)
def shift(a, by=1.0):
    return a + by


print(torch.is_grad_enabled())
print(double(x).requires_grad, triple(x).requires_grad, halve(x).requires_grad)
print(negate(x).requires_grad, shift(x, by=2.0).requires_grad)
print(double(x).tolist(), shift(x, by=2.0).tolist())
print(double.__name__, triple.__name__, halve.__name__, shift.__name__)
print(torch.is_grad_enabled())

with torch.no_grad():
    y = square(x)
    print(y.requires_grad, torch.is_grad_enabled())
y.sum().backward()
print(x.grad.tolist())

with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)

with torch.inference_mode(False):
    print(torch.is_grad_enabled())
with torch.inference_mode(mode=True):
    print(torch.is_grad_enabled())


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3, device=device))

    @torch.no_grad()
    def predict(self, v):
        return (self.w * v).sum()


m = Model()
p = m.predict(torch.arange(3.0, device=device))
print(p.item(), p.requires_grad)


@torch.no_grad()
def fails():
    raise ValueError("inside")


try:
    fails()
except ValueError as e:
    print("caught", e, torch.is_grad_enabled())
print(torch.no_grad()(lambda: 3)())
