# Assembling and slicing mini-batches: cat/stack and their h/v/d variants,
# split with sizes, tensor_split at indices, chunk and unbind.
import torch

device = "tpu"

a = torch.tensor([[1, 2], [3, 4]], device=device)
b = torch.tensor([[5, 6], [7, 8]], device=device)
print(torch.cat([a, b]).cpu())
print(torch.cat((a, b), dim=1).cpu())
print(torch.stack([a, b]).shape, torch.stack([a, b], dim=2).shape, torch.stack([a, b], -1)[0].tolist())
print(torch.hstack([a, b]).cpu())
print(torch.vstack([a, b]).shape, torch.dstack([a, b]).shape)
print(torch.hstack([torch.tensor([1, 2], device=device), torch.tensor([3], device=device)]).tolist())
print(torch.vstack([torch.tensor([1, 2], device=device), torch.tensor([3, 4], device=device)]).cpu())
print(torch.column_stack([torch.tensor([1, 2], device=device), torch.tensor([3, 4], device=device)]).cpu())
print(torch.row_stack([a, b]).shape)

data = torch.arange(10, device=device)
print([t.tolist() for t in torch.split(data, 4)])
print([t.tolist() for t in data.split([2, 3, 5])])
print([t.tolist() for t in torch.tensor_split(data, 3)])
print([t.tolist() for t in torch.tensor_split(data, [2, 7])])
print([t.tolist() for t in data.tensor_split((1, 4), dim=0)])
print([t.shape for t in torch.chunk(data, 4)])
print([t.tolist() for t in data.chunk(3)])

grid = torch.arange(12, device=device).reshape(3, 4)
left, right = grid.split(2, dim=1)
print(left.cpu(), right.cpu())
print([t.tolist() for t in grid.unbind(1)])
print([t.shape for t in torch.hsplit(grid, 2)], [t.shape for t in torch.vsplit(grid, [1])])

try:
    torch.cat([a, torch.ones(3, 3, dtype=torch.int64, device=device)], dim=1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    data.split([3, 3])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.stack([a, torch.tensor([1, 2], device=device)])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.cat([a.float(), b.double()]).dtype, torch.cat([torch.tensor([], device=device), a.flatten().float()]).tolist())
