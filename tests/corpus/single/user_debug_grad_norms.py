# Watching gradients while training: the norm of every parameter's gradient
# after each backward, the total norm, which parameters got no gradient, and
# what clip_grad_norm_ reports before clipping.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(3)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 10)
        self.fc2 = nn.Linear(10, 2)
        self.unused = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

model = Net().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x = torch.randn(32, 6, device=device)
y = (x[:, 0] * x[:, 1] > 0).long()

for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    print(f"step {step} loss {loss.item():.4f}")
    norms = {}
    for name, p in model.named_parameters():
        if p.grad is None:
            print(f"  {name}: no grad")
            continue
        norms[name] = p.grad.norm().item()
        print(f"  {name}: grad norm {norms[name]:.5f} max {p.grad.abs().max().item():.5f}")
    total = torch.norm(torch.stack([p.grad.norm() for p in model.parameters() if p.grad is not None]))
    print(f"  total {total.item():.5f}", max(norms, key=norms.get))
    reported = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    print(f"  clip reported {reported.item():.5f}", torch.isclose(reported, total).item())
    after = torch.norm(torch.stack([p.grad.norm() for p in model.parameters() if p.grad is not None]))
    print(f"  after clipping {after.item():.5f}")
    opt.step()

# Ratio of update size to weight size, a common health check.
w_before = model.fc1.weight.detach().clone()
opt.zero_grad()
F.cross_entropy(model(x), y).backward()
opt.step()
ratio = (model.fc1.weight.detach() - w_before).norm() / w_before.norm()
print(f"update/weight ratio {ratio.item():.6f}")
print([round(v, 4) for v in model.fc2.bias.grad.tolist()])
print(model.unused.weight.grad, model.fc1.weight.grad.shape)
