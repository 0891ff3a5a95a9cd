# Products with a zero-size dimension: an empty contraction (k = 0) is a
# tensor of zeros, an empty m, n or batch an empty result, through @, mm, bmm,
# matmul, addmm, einsum and Linear, in float32, float64 and int64, with the
# gradients of the empty contraction (zeros or empty tensors of the operands'
# shapes).
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


def show(label, t):
    print(label, tuple(t.shape), t.dtype)
    print(t.cpu())


a = torch.randn(4, 0, device=device)
b = torch.randn(0, 3, device=device)
show("@ k=0", a @ b)
show("mm k=0", torch.mm(a, b))
show("matmul k=0", torch.matmul(a, b))
show("m=0", torch.randn(0, 5, device=device) @ torch.randn(5, 3, device=device))
show("n=0", torch.randn(4, 5, device=device) @ torch.randn(5, 0, device=device))
show("all zero", torch.randn(0, 0, device=device) @ torch.randn(0, 0, device=device))
show("m=0 k=0", torch.randn(0, 0, device=device) @ torch.randn(0, 3, device=device))
show("bmm k=0", torch.bmm(torch.randn(2, 4, 0, device=device), torch.randn(2, 0, 3, device=device)))
show("bmm batch=0", torch.bmm(torch.randn(0, 4, 5, device=device), torch.randn(0, 5, 3, device=device)))
show("broadcast k=0", torch.randn(2, 3, 4, 0, device=device) @ torch.randn(0, 2, device=device))
show("broadcast batch=0", torch.randn(0, 1, 4, 5, device=device) @ torch.randn(3, 5, 2, device=device))
show("dot k=0", torch.randn(0, device=device) @ torch.randn(0, device=device))
show("vector @ matrix k=0", torch.randn(0, device=device) @ torch.randn(0, 3, device=device))
show("matrix @ vector k=0", torch.randn(4, 0, device=device) @ torch.randn(0, device=device))
show("transposed k=0", torch.randn(0, 4, device=device).t() @ torch.randn(3, 0, device=device).t())
show("float64 k=0", torch.randn(2, 0, dtype=torch.float64, device=device) @ torch.randn(0, 2, dtype=torch.float64, device=device))
show("int64 k=0", torch.ones(2, 0, dtype=torch.long, device=device) @ torch.ones(0, 3, dtype=torch.long, device=device))
show("addmm k=0", torch.addmm(torch.arange(3.0, device=device), a, b))
show("einsum k=0", torch.einsum("ij,jk->ik", a, b))
show("F.linear k=0", F.linear(torch.randn(2, 0, device=device), torch.randn(3, 0, device=device), torch.ones(3, device=device)))

# The backward of an empty contraction: the operands' gradients have their
# shapes, and the other operand of an empty m or n gets zeros.
x = torch.randn(4, 0, device=device, requires_grad=True)
w = torch.randn(0, 3, device=device, requires_grad=True)
y = x @ w
(y * torch.arange(12.0, device=device).reshape(4, 3)).sum().backward()
show("grad x k=0", x.grad)
show("grad w k=0", w.grad)

p = torch.randn(0, 5, device=device, requires_grad=True)
q = torch.randn(5, 3, device=device, requires_grad=True)
(p @ q).sum().backward()
show("grad p m=0", p.grad)
show("grad q m=0", q.grad)

u = torch.randn(2, 4, 0, device=device, requires_grad=True)
v = torch.randn(2, 0, 3, device=device, requires_grad=True)
torch.bmm(u, v).pow(2).sum().backward()
show("grad u bmm", u.grad)
show("grad v bmm", v.grad)

layer = nn.Linear(0, 3).to(device)
out = layer(torch.randn(2, 0, device=device))
show("Linear(0, 3)", out.detach())
out.sum().backward()
show("Linear weight grad", layer.weight.grad)
show("Linear bias grad", layer.bias.grad)
