# The same small regression under each optimizer and its options: which converges, and where the weights end.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(4)
X = torch.randn(24, 3, device=device)
y = X @ torch.tensor([[2.0], [-1.0], [0.5]], device=device) + 1.0

configs = [
    ("SGD nesterov", torch.optim.SGD, dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD dampening+wd", torch.optim.SGD, dict(lr=0.05, momentum=0.8, dampening=0.1, weight_decay=0.01)),
    ("Adam amsgrad", torch.optim.Adam, dict(lr=0.05, amsgrad=True)),
    ("Adam betas", torch.optim.Adam, dict(lr=0.05, betas=(0.5, 0.9), eps=1e-6, weight_decay=0.01)),
    ("AdamW amsgrad", torch.optim.AdamW, dict(lr=0.05, weight_decay=0.1, amsgrad=True)),
    ("RMSprop", torch.optim.RMSprop, dict(lr=0.01)),
    ("RMSprop centered", torch.optim.RMSprop, dict(lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.01)),
    ("Adagrad", torch.optim.Adagrad, dict(lr=0.3)),
    ("Adagrad decay", torch.optim.Adagrad, dict(lr=0.3, lr_decay=0.01, weight_decay=0.001, initial_accumulator_value=0.1)),
    ("SGD maximize", torch.optim.SGD, dict(lr=0.01, maximize=True)),
]

for name, cls, kwargs in configs:
    torch.manual_seed(0)
    model = nn.Linear(3, 1).to(device)
    opt = cls(model.parameters(), **kwargs)
    history = []
    for step in range(25):
        loss = ((model(X) - y) ** 2).mean()
        if "maximize" in name:
            loss = -loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 8 == 0:
            history.append(round(loss.item(), 4))
    w = [round(v, 3) for v in model.weight.detach().cpu().flatten().tolist()]
    print(f"{name:18s} loss {history} w {w} b {model.bias.item():.3f}")

opt = torch.optim.RMSprop(nn.Linear(2, 2).parameters())
print(sorted(k for k in opt.param_groups[0] if k != "params"))
opt = torch.optim.Adagrad(nn.Linear(2, 2).parameters())
print(sorted(k for k in opt.param_groups[0] if k != "params"))
for bad in [dict(lr=-1.0), dict(betas=(1.5, 0.9)), dict(eps=-1e-8)]:
    try:
        torch.optim.Adam(nn.Linear(2, 2).parameters(), **bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, nesterov=True)
except ValueError as e:
    print("ValueError:", e)
