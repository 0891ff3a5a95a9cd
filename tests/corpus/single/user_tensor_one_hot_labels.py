# Turning class labels into one-hot targets, and back: F.one_hot, scatter_,
# argmax, class counts, and a smoothed target for a loss.
import torch
import torch.nn.functional as F

device = "tpu"

labels = torch.tensor([2, 0, 1, 2, 3, 0], device=device)
num_classes = 4

one_hot = F.one_hot(labels, num_classes=num_classes)
print(one_hot.dtype, one_hot.shape)
print(one_hot.cpu())

# The same with scatter_ into a float buffer.
target = torch.zeros(labels.shape[0], num_classes, device=device)
target.scatter_(1, labels.unsqueeze(1), 1.0)
print(target.cpu())
print("agree:", torch.equal(target.long(), one_hot))

# Inferred number of classes.
print(F.one_hot(torch.tensor([0, 2, 1], device=device)).cpu())

# Back to labels.
print("argmax:", one_hot.argmax(dim=1).tolist())

# Counting classes.
print("counts:", one_hot.sum(dim=0).tolist(), torch.bincount(labels).tolist())
print("bincount minlength:", torch.bincount(labels, minlength=6).tolist())

# Label smoothing.
eps = 0.1
smooth = one_hot.float() * (1 - eps) + eps / num_classes
print(smooth[:2].cpu(), smooth.sum(1).tolist())

# scatter_add_ to sum scores per class.
scores = torch.tensor([0.5, 1.0, 2.0, 0.25, 4.0, 1.5], device=device)
per_class = torch.zeros(num_classes, device=device).scatter_add_(0, labels, scores)
print("per class:", per_class.cpu())

# scatter with a tensor source.
src = torch.arange(1, 7, device=device).float().reshape(2, 3)
idx = torch.tensor([[0, 1, 2], [2, 0, 1]], device=device)
print(torch.zeros(2, 3, device=device).scatter(1, idx, src).cpu())

try:
    F.one_hot(torch.tensor([0, 5], device=device), num_classes=3)
except RuntimeError as e:
    print("RuntimeError:", e)
