# torch.roll returns a new tensor even when nothing moves (a shift of 0, or
# along a dimension of one), so writing into the result leaves the input as it
# was: makemore's MLP rolls its context and overwrites the first column.
import torch

device = "tpu"
idx = torch.zeros(3, 1, dtype=torch.long, device=device)
rolled = torch.roll(idx, 1, 1)
rolled[:, 0] = 27
print(idx.flatten().tolist(), rolled.flatten().tolist())

x = torch.arange(6.0, device=device).reshape(2, 3)
same = torch.roll(x, 0, 0)
same[0, 0] = -1.0
print(x.tolist(), same.tolist())
full = torch.roll(x, 3)
full[1, 2] = 9.0
print(x.tolist(), full.tolist())
print(torch.roll(x, 1, 1).tolist(), torch.roll(x, (1, -1), (0, 1)).tolist())

w = torch.ones(2, 2, requires_grad=True)
y = torch.roll(w * 2, 0, 1)
print(y.grad_fn.name(), (w * 2).grad_fn.name())
