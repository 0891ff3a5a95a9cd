# Mistakes around nn.Module and optimizers, each caught and printed: a model
# without super().__init__(), an optimizer with no parameters, loading a state
# dict with the wrong keys or shapes, and a loss fed mismatched batch sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(9)

class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)

try:
    Forgot()
except AttributeError as e:
    print("AttributeError:", e)

class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

model = Small().to(device)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.optim.SGD(model.parameters(), lr=-1.0)
except ValueError as e:
    print("ValueError:", e)

try:
    model.load_state_dict({"fc.weight": torch.zeros(2, 4)})
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model.load_state_dict({"fc.weight": torch.zeros(3, 4), "fc.bias": torch.zeros(2)})
except RuntimeError as e:
    print("RuntimeError:", e)
result = model.load_state_dict({"fc.weight": torch.zeros(2, 4)}, strict=False)
print(result.missing_keys, result.unexpected_keys)

try:
    model.nonexistent
except AttributeError as e:
    print("AttributeError:", e)
try:
    model(torch.randn(3, 5, device=device))
except RuntimeError as e:
    print("RuntimeError:", e)
out = model(torch.randn(3, 4, device=device))
try:
    F.cross_entropy(out, torch.tensor([0, 1], device=device))
except ValueError as e:
    print("ValueError:", e)
try:
    F.cross_entropy(out, torch.tensor([0, 1, 2], device=device))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
try:
    F.nll_loss(out, torch.tensor([[0], [1], [1]], device=device))
except (ValueError, RuntimeError) as e:
    print(type(e).__name__ + ":", e)
try:
    nn.Sequential(nn.Linear(4, 3), nn.Linear(4, 2)).to(device)(torch.randn(2, 4, device=device))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    model.fc.weight = torch.zeros(2, 4)
except TypeError as e:
    print("TypeError:", e)
model.fc.bias = None
print([name for name, _ in model.named_parameters()])
print(F.mse_loss(out, torch.zeros(3, 2, device=device)).item() > 0, model.training, model.eval().training)
