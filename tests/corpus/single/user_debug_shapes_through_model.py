# Tracing shapes through a small model while debugging: walk the layers of a
# Sequential by hand, print every intermediate shape, then the parameters with
# their shapes, counts and requires_grad flags.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(12, 16),
    nn.ReLU(),
    nn.Dropout(0.1),
    nn.Linear(16, 8),
    nn.Tanh(),
    nn.Linear(8, 3),
).to(device)
model.eval()

x = torch.randn(5, 12, device=device)
print("input", tuple(x.shape), x.dtype)
h = x
for i, layer in enumerate(model):
    h = layer(h)
    print(f"{i:2d} {type(layer).__name__:8s} -> {list(h.shape)}  mean={h.mean().item():.4f}")

out = model(x)
print("same as forward:", torch.allclose(out, h), out.shape == h.shape)

total = 0
for name, p in model.named_parameters():
    total += p.numel()
    print(f"{name:10s} {str(tuple(p.shape)):10s} {p.numel():4d} requires_grad={p.requires_grad}")
print("total parameters:", total)
print("trainable:", sum(p.numel() for p in model.parameters() if p.requires_grad))

for name, module in model.named_children():
    n = sum(p.numel() for p in module.parameters())
    print(name, module.__class__.__name__, n)

# A batch with the wrong feature size shows up at the first Linear.
bad = torch.randn(5, 10, device=device)
try:
    model(bad)
except RuntimeError as e:
    print("RuntimeError:", e)

# Flatten an image batch before the model, the usual fix.
images = torch.randn(5, 3, 2, 2, device=device)
print(images.shape, images.flatten(1).shape, model(images.flatten(1)).shape)
print(model(images.view(images.size(0), -1)).argmax(dim=1).cpu())
print(model)
