# Working with shapes as values: torch.Size indexing, slicing, arithmetic and
# comparisons, numel, unpacking, and getting Python numbers out with
# .tolist() and .item().
import torch

device = "tpu"

images = torch.zeros(8, 3, 32, 32, device=device)
s = images.shape
print(s, type(s).__name__, len(s), s[0], s[-1], s[1:], s[::2])
print(s.numel(), images.numel(), images.size()[2:], images.size(-1))
n, c, h, w = s
print(n * c, h * w, tuple(s), list(s))
print(s == (8, 3, 32, 32), s == torch.Size([8, 3, 32, 32]), s != [8, 3, 32, 32])
print(s + (1,), (1,) + s[1:], torch.Size([2, 3]) + torch.Size([4]))
print(isinstance(s, tuple), torch.Size([2, 2]) * 2, 32 in s, s.index(32), s.count(32))
new_shape = (s[0], -1)
print(images.view(new_shape).shape, images.reshape(s[0], s[1] * s[2] * s[3]).shape)
print(torch.zeros(s[1:]).shape, torch.ones(torch.Size([2, 2])).shape, torch.Size())

# tolist on each dtype and rank.
print(torch.tensor(3.5).tolist(), torch.tensor([1, 2]).tolist(), torch.tensor([[True], [False]]).tolist())
print(torch.arange(6, device=device).reshape(2, 3).tolist())
print(torch.tensor([0.1, 0.2], dtype=torch.float64).tolist(), torch.tensor([0.1, 0.2]).tolist())
print(torch.tensor([1, 2], dtype=torch.int32).tolist(), torch.zeros(2, 0).tolist())

# item on one-element tensors.
loss = torch.tensor([[0.75]], device=device)
print(loss.item(), type(loss.item()).__name__, type(torch.tensor(3).item()).__name__, type(torch.tensor(True).item()).__name__)
print(float(loss), int(torch.tensor(7.9)), bool(torch.tensor([1])), round(torch.tensor(2.567).item(), 1))
try:
    torch.tensor([1.0, 2.0]).item()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    float(torch.tensor([1.0, 2.0]))
except (RuntimeError, TypeError, ValueError) as e:
    print(type(e).__name__ + ":", e)

# Shapes in loops.
for i, row in enumerate(torch.arange(6, device=device).reshape(3, 2)):
    print(i, row.shape, row.tolist(), row.sum().item())
print([d for d in images.shape if d > 3], max(images.shape), sum(images.shape))
print(images.dim(), images.ndimension(), images[0, 0].shape, images[:, 0, 0, 0].shape, images[None].shape)
