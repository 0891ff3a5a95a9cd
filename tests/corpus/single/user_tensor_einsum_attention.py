# Writing attention and bilinear forms with torch.einsum, checked against the
# matmul formulations they replace.
import torch

device = "tpu"
torch.manual_seed(2)

A = torch.randn(3, 4, device=device)
B = torch.randn(4, 5, device=device)
print(torch.allclose(torch.einsum("ij,jk->ik", A, B), A @ B, atol=1e-6))
print(torch.equal(torch.einsum("ij->ji", A), A.T))
print(torch.allclose(torch.einsum("ij->i", A), A.sum(1)), torch.allclose(torch.einsum("ij->", A), A.sum()))

sq = torch.randn(4, 4, device=device)
print(torch.allclose(torch.einsum("ii->i", sq), sq.diagonal()), torch.allclose(torch.einsum("ii", sq), sq.trace()))

u = torch.tensor([1.0, 2.0, 3.0], device=device)
v = torch.tensor([4.0, 5.0, 6.0], device=device)
print(torch.einsum("i,i->", u, v).item(), torch.einsum("i,j->ij", u, v).cpu())
print(torch.einsum("i,i->i", u, v).tolist())

x = torch.randn(2, 3, 4, device=device)
y = torch.randn(2, 4, 2, device=device)
print(torch.allclose(torch.einsum("bij,bjk->bik", x, y), torch.bmm(x, y), atol=1e-6))

# Multi-head attention scores.
q = torch.randn(2, 2, 5, 8, device=device)
k = torch.randn(2, 2, 6, 8, device=device)
vv = torch.randn(2, 2, 6, 8, device=device)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / 8 ** 0.5
print(scores.shape, torch.allclose(scores, q @ k.transpose(-2, -1) / 8 ** 0.5, atol=1e-5))
weights = scores.softmax(dim=-1)
out = torch.einsum("bhqk,bhkd->bhqd", weights, vv)
print(out.shape, torch.allclose(out, weights @ vv, atol=1e-5))

# Bilinear form and a weighted sum with spaces and ellipsis.
W = torch.randn(3, 3, device=device)
print(round(torch.einsum("i,ij,j->", u, W, v).item(), 3) == round((u @ W @ v).item(), 3))
print(torch.einsum("b i, b i -> b", A, A).shape, torch.einsum("...ij->...ji", x).shape)
print(torch.einsum("bij->bj", x).shape, torch.einsum(A, [0, 1], [1, 0]).shape)

try:
    torch.einsum("ij,jk->ik", A, A)
except RuntimeError as e:
    print("RuntimeError:", e)
