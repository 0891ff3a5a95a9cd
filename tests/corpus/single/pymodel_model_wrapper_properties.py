# Properties (getter, setter, deleter) on a wrapper around an nn.Module, with validation errors.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(2)


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self._lr = None
        self.lr = lr
        self._history = []

    @property
    def lr(self):
        return self._lr

    @lr.setter
    def lr(self, value):
        if value <= 0:
            raise ValueError(f"learning rate must be positive, got {value}")
        self._lr = value

    @lr.deleter
    def lr(self):
        print("resetting lr")
        self._lr = 0.01

    @property
    def num_params(self):
        return sum(p.numel() for p in self.model.parameters())

    @property
    def last_loss(self):
        return self._history[-1] if self._history else None

    def step(self, x, y):
        loss = ((self.model(x) - y) ** 2).mean()
        self.model.zero_grad()
        loss.backward()
        with torch.no_grad():
            for p in self.model.parameters():
                p -= self.lr * p.grad
        self._history.append(round(loss.item(), 4))
        return loss


trainer = Trainer(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device), 0.05)
print(trainer.num_params, trainer.lr, trainer.last_loss)
x = torch.randn(10, 4, device=device)
y = x[:, :1] * 2 - 1
for _ in range(5):
    trainer.step(x, y)
print(trainer.last_loss < trainer._history[0], len(trainer._history))
trainer.lr = 0.1
print(trainer.lr)
try:
    trainer.lr = -1
except ValueError as e:
    print("ValueError:", e)
del trainer.lr
print(trainer.lr)
try:
    trainer.num_params = 3
except AttributeError as e:
    print("AttributeError:", e)
print(type(Trainer.lr).__name__, Trainer.lr.fget.__name__)
