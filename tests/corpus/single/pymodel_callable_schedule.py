# Callable objects (__call__) as a learning-rate schedule, __index__/__int__/__float__ conversions, and a history with slicing.
import math
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(12)


class CosineSchedule:
    def __init__(self, base_lr, total_steps, warmup=2):
        self.base_lr = base_lr
        self.total_steps = total_steps
        self.warmup = warmup

    def __call__(self, step):
        if step < self.warmup:
            return self.base_lr * (step + 1) / self.warmup
        progress = (step - self.warmup) / max(1, self.total_steps - self.warmup)
        return 0.5 * self.base_lr * (1 + math.cos(math.pi * progress))

    def __repr__(self):
        return f"CosineSchedule(base_lr={self.base_lr}, total_steps={self.total_steps})"


class Epoch:
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __float__(self):
        return float(self.n) + 0.5

    def __str__(self):
        return f"epoch #{self.n}"


class History:
    def __init__(self):
        self.values = []

    def append(self, v):
        self.values.append(v)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [round(v, 4) for v in self.values[key]]
        return round(self.values[key], 4)

    def __len__(self):
        return len(self.values)


schedule = CosineSchedule(0.2, total_steps=6)
print(schedule, callable(schedule), [round(schedule(s), 4) for s in range(6)])
model = nn.Linear(2, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=schedule(0))
x = torch.randn(8, 2, device=device)
y = x @ torch.tensor([[1.0], [-1.0]], device=device)
history = History()
for step in range(6):
    for group in opt.param_groups:
        group["lr"] = schedule(step)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
print(len(history), history[0] > history[-1], len(history[1:4]), history[::5] == [history[0], history[5]])
e = Epoch(2)
print(str(e), int(e), float(e), [10, 20, 30][e], "abcd"[e], list(range(5))[e:])
print(f"{e}", torch.arange(6)[e].item(), operator_free := e.__index__() * 2)
