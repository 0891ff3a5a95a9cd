# torch.autograd.Function: forward/backward with ctx, setup_context style,
# non-tensor arguments, needs_input_grad, composition with ordinary ops,
# torch.autograd.grad through one, and the errors PyTorch raises.
import torch
from torch.autograd import Function

device = "tpu"


class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y


class ScaleBy(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


class MulAdd(Function):
    @staticmethod
    def forward(a, b, c):
        return a * b + c

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b, c = inputs
        ctx.save_for_backward(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        ga = g * b if ctx.needs_input_grad[0] else None
        gb = g * a if ctx.needs_input_grad[1] else None
        return ga, gb, g


class StraightThrough(Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()

    @staticmethod
    def backward(ctx, g):
        return g


def show(name, t):
    print(name, [round(v, 4) for v in t.flatten().tolist()])


x = torch.tensor([0.5, -1.0, 2.0], device=device, requires_grad=True)
y = Exp.apply(x)
print("requires_grad", y.requires_grad, "is_leaf", y.is_leaf)
show("y", y)
(y * 2).sum().backward()
show("x.grad", x.grad)

w = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
z = ScaleBy.apply(w, 3.0).pow(2).sum()
z.backward()
show("w.grad", w.grad)

a = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
b = torch.tensor([3.0, 4.0], device=device)
c = torch.tensor([0.5, 0.5], device=device, requires_grad=True)
MulAdd.apply(a, b, c).sum().backward()
show("a.grad", a.grad)
show("c.grad", c.grad)
print("b.grad", b.grad)

q = torch.tensor([0.3, 1.7, -2.4], device=device, requires_grad=True)
(StraightThrough.apply(q) * torch.tensor([1.0, 2.0, 3.0], device=device)).sum().backward()
show("straight-through", q.grad)

u = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
(gu,) = torch.autograd.grad(Exp.apply(u * 2).sum(), u)
show("autograd.grad", gu)

with torch.no_grad():
    n = Exp.apply(u)
print("under no_grad", n.requires_grad)
plain = Exp.apply(torch.tensor([0.0], device=device))
print("no input needs grad", plain.requires_grad)


class WrongCount(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return g


try:
    WrongCount.apply(u, u).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class GradForNumber(Function):
    @staticmethod
    def forward(ctx, x, k):
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g, g


try:
    GradForNumber.apply(u, 2.0).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

v = torch.tensor([1.0], device=device, requires_grad=True)
s = Exp.apply(v).sum()
s.backward()
try:
    s.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
