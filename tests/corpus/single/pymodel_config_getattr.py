# A config object with __getattr__/__setattr__ over a dict, defaults, __contains__, __iter__ and __repr__.
import torch
import torch.nn as nn

device = "tpu"


class Config:
    defaults = {"lr": 0.01, "hidden": 16, "epochs": 2}

    def __init__(self, **overrides):
        object.__setattr__(self, "_values", dict(self.defaults))
        for key, value in overrides.items():
            setattr(self, key, value)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(f"config has no option '{name}'") from None

    def __setattr__(self, name, value):
        if name not in self.defaults:
            raise KeyError(f"unknown option {name}")
        self._values[name] = value

    def __delattr__(self, name):
        self._values[name] = self.defaults[name]

    def __contains__(self, name):
        return name in self._values

    def __iter__(self):
        return iter(sorted(self._values))

    def __getitem__(self, name):
        return self._values[name]

    def __repr__(self):
        body = ", ".join(f"{k}={self[k]!r}" for k in self)
        return f"Config({body})"


cfg = Config(hidden=8)
print(cfg, cfg.lr, cfg.hidden, "epochs" in cfg, "momentum" in cfg)
cfg.lr = 0.1
print(getattr(cfg, "lr"), getattr(cfg, "momentum", 0.9), hasattr(cfg, "momentum"))
try:
    cfg.momentum
except AttributeError as e:
    print("AttributeError:", e)
try:
    cfg.momentum = 0.5
except KeyError as e:
    print("KeyError:", e)
del cfg.lr
print(cfg.lr, list(cfg), dict((k, cfg[k]) for k in cfg))
torch.manual_seed(4)
model = nn.Linear(3, cfg.hidden).to(device)
opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)
x = torch.randn(4, 3, device=device)
for epoch in range(cfg.epochs):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 5))
