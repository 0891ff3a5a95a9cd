# Matrix products: matmul, @, mm, bmm, 1-D operands and batched broadcasting.
import torch

device = "tpu"

a = torch.arange(6.0, device=device).reshape(2, 3)
b = torch.tensor([[1.0, 0.0], [0.5, -1.0], [2.0, 1.0]], device=device)
print((a @ b).cpu())
print(torch.matmul(a, b).cpu(), torch.mm(a, b).shape)
v = torch.tensor([1.0, -1.0, 2.0], device=device)
print((a @ v).cpu(), (a @ v).shape)
print((v @ b).cpu(), (v @ b).shape)
print((v @ v).item(), torch.matmul(v, v).shape)
A = torch.arange(12.0, device=device).reshape(2, 2, 3)
B = torch.arange(12.0, device=device).reshape(2, 3, 2) * 0.5
print(torch.bmm(A, B).cpu())
print((A @ B).shape)
print((A @ b).cpu())
print((A @ v).cpu())
C = torch.ones(3, 1, 2, 3, device=device)
D = torch.arange(12.0, device=device).reshape(4, 3, 1)
print((C @ D).shape, (C @ D).sum().item())
print((b.T @ a.T).cpu())
print(torch.eye(3, device=device).matmul(v).cpu())
m = torch.tensor([[1, 2], [3, 4]], device=device)
print((m @ m).cpu(), (m @ m).dtype)
x = torch.tensor([[0.1, 0.2], [0.3, 0.4]], device=device)
print((x @ x @ x).cpu())
