# Autograd mistakes and the errors PyTorch raises for them: backward twice,
# backward on a non-scalar, in-place changes to leaves, grad of tensors that
# do not require grad, and the fixes (retain_graph, gradient=, no_grad).
import torch

device = "tpu"
torch.manual_seed(2)

def report(label, fn):
    try:
        result = fn()
        print(label, "ok", result)
    except Exception as e:
        print(label, type(e).__name__ + ":", e)

w = torch.randn(3, device=device, requires_grad=True)
x = torch.tensor([1.0, 2.0, 3.0], device=device)

loss = (w * x).pow(2).sum()
loss.backward()
print("first grad", [round(g, 4) for g in w.grad.tolist()])
report("backward twice", lambda: loss.backward())

loss = (w * x).pow(2).sum()
loss.backward(retain_graph=True)
loss.backward()
print("retain_graph grad", [round(g, 4) for g in w.grad.tolist()])

y = w * x
report("non-scalar backward", lambda: y.backward())
y.backward(torch.ones(3, device=device))
print("with gradient=", [round(g, 4) for g in w.grad.tolist()])

report("leaf in-place", lambda: w.add_(1.0))
with torch.no_grad():
    w.add_(1.0)
print("no_grad in-place", w.requires_grad, w.is_leaf)

report("no grad_fn", lambda: x.sum().backward())
report("int requires_grad", lambda: torch.tensor([1, 2], device=device).requires_grad_())
report("int tensor(requires_grad)", lambda: torch.tensor([1, 2], requires_grad=True))
report("grad of int", lambda: torch.zeros(2, dtype=torch.long, device=device).requires_grad_(True))
with torch.no_grad():
    report("backward in no_grad", lambda: (w * 2).sum().backward())

# torch.autograd.grad on something unrelated.
a = torch.ones(2, device=device, requires_grad=True)
b = torch.ones(2, device=device, requires_grad=True)
out = (a * 3).sum()
report("grad unused", lambda: torch.autograd.grad(out, [a, b]))
out = (a * 3).sum()
print("allow_unused", torch.autograd.grad(out, [a, b], allow_unused=True)[1], a.grad)
report("grad of constant", lambda: torch.autograd.grad((a * 2).sum(), x))

# The usual zero_grad mistake: gradients accumulate.
w.grad = None
for _ in range(3):
    (w * x).sum().backward()
print("accumulated", w.grad.tolist())
w.grad.zero_()
print("zeroed", w.grad.tolist())
report("detach then backward", lambda: w.detach().sum().backward())
