# Loss modules and functions: MSELoss, CrossEntropyLoss, F.mse_loss, F.cross_entropy, with reductions and gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"

pred = torch.tensor([[0.5, 1.0], [2.0, -1.0], [0.0, 3.0]], device=device, requires_grad=True)
target = torch.tensor([[1.0, 1.0], [1.5, 0.0], [-1.0, 2.0]], device=device)
mse = nn.MSELoss()
loss = mse(pred, target)
print(loss.item())
loss.backward()
print(pred.grad.cpu())
print(F.mse_loss(pred, target, reduction="sum").item())
print(F.mse_loss(pred, target, reduction="none").detach().cpu())
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 4.0]], device=device, requires_grad=True)
labels = torch.tensor([0, 2, 1, 0], device=device)
ce = nn.CrossEntropyLoss()
l = ce(logits, labels)
print(f"{l.item():.6f}")
l.backward()
print(logits.grad.cpu())
print(f"{F.cross_entropy(logits, labels, reduction='sum').item():.6f}")
print(F.cross_entropy(logits, labels, reduction="none").detach().cpu())
manual = -F.log_softmax(logits, dim=1)[torch.arange(4, device=device), labels].mean()
print(abs(manual.item() - l.item()) < 1e-6)
print(nn.CrossEntropyLoss(reduction="sum")(logits[:2], labels[:2]).item())
seq_logits = torch.tensor([[[1.0, 2.0], [0.0, 0.5]], [[3.0, -1.0], [0.2, 0.1]]], device=device)
seq_labels = torch.tensor([[1, 0], [0, 1]], device=device)
print(F.cross_entropy(seq_logits.reshape(-1, 2), seq_labels.reshape(-1)).item())
print(nn.MSELoss(reduction="mean")(torch.zeros(3, device=device), torch.ones(3, device=device)).item())
