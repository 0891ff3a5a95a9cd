# Counting parameters, walking modules, freezing a backbone with requires_grad_(False) and fine-tuning the head.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(21)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.norm = nn.LayerNorm(16)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.norm(self.features(x)))


model = Classifier().to(device)
total = sum(p.numel() for p in model.parameters())
print("total params", total)
for name, p in model.named_parameters():
    print(f"  {name:20s} {str(tuple(p.shape)):10s} {p.numel()}")
print("modules:", [name for name, _ in model.named_modules()])
print("children:", [type(m).__name__ for m in model.children()])
print("linear layers:", sum(1 for m in model.modules() if isinstance(m, nn.Linear)))

model.features.requires_grad_(False)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("trainable after freezing", trainable, "of", total)

opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
frozen_before = model.features[0].weight.detach().clone()
head_before = model.head.weight.detach().clone()
x = torch.randn(12, 8, device=device)
labels = torch.randint(0, 4, (12,), device=device)
for step in range(5):
    loss = nn.functional.cross_entropy(model(x), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("step", step, "loss", round(loss.item(), 4))
print("frozen grad", model.features[0].weight.grad)
print("frozen unchanged", torch.equal(frozen_before, model.features[0].weight.detach()))
print("head changed", not torch.equal(head_before, model.head.weight.detach()))

for p in model.features.parameters():
    p.requires_grad = True
print("trainable after unfreezing", sum(p.numel() for p in model.parameters() if p.requires_grad))
print("named children", [n for n, _ in model.named_children()])
print("features[2]", model.features[2])
print("get_submodule", model.get_submodule("features.0"))
print("get_parameter", tuple(model.get_parameter("head.bias").shape))
