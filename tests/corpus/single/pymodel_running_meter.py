# A running-average meter updated with += inside a training loop, with a property and __format__.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.total = 0.0
        self.count = 0

    def __iadd__(self, value):
        if isinstance(value, torch.Tensor):
            value = value.item()
        self.total += value
        self.count += 1
        return self

    @property
    def avg(self):
        return self.total / self.count if self.count else 0.0

    def __len__(self):
        return self.count

    def __format__(self, spec):
        return f"{self.name}={format(self.avg, spec)}"

    def __str__(self):
        return f"{self:.4f} over {len(self)} steps"


model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 3, device=device)
y = x.sum(dim=1, keepdim=True)
meter = AverageMeter("loss")
print(bool(meter), f"{meter:.2f}")
for epoch in range(3):
    meter.reset()
    for i in range(0, 16, 4):
        loss = ((model(x[i:i + 4]) - y[i:i + 4]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        meter += loss
    print(f"epoch {epoch}: {meter:.4f}", bool(meter))
print(meter)
steps = AverageMeter("steps")
steps += 1
steps += 2.5
print(steps, steps.avg)
try:
    meter.avg = 1.0
except AttributeError as e:
    print("AttributeError:", e)
