# torch.optim.Adam and AdamW (with weight decay) for a few steps on a tiny linear model.
import torch
import torch.nn as nn

device = "tpu"

X = torch.tensor([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5], [-1.0, 1.5]], device=device)
y = torch.tensor([[3.0], [0.5], [1.0], [1.0]], device=device)


def make():
    m = nn.Linear(2, 1).to(device)
    with torch.no_grad():
        m.weight[:] = torch.tensor([[0.3, -0.4]], device=device)
        m.bias[:] = 0.1
    return m


for name, cls, kw in [("Adam", torch.optim.Adam, {}), ("Adam_wd", torch.optim.Adam, {"weight_decay": 0.1}),
                      ("AdamW", torch.optim.AdamW, {"weight_decay": 0.1}), ("AdamW_b", torch.optim.AdamW, {"betas": (0.8, 0.99)})]:
    model = make()
    opt = cls(model.parameters(), lr=0.1, **kw)
    losses = []
    for step in range(30):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step in (0, 1, 2, 10, 29):
            losses.append(f"{loss.item():.4f}")
    print(name, losses)
    print([round(v, 3) for v in model.weight.detach().cpu().flatten().tolist()], round(model.bias.item(), 3))
p = torch.tensor([2.0, -3.0], device=device, requires_grad=True)
opt = torch.optim.Adam([p], lr=0.01)
for _ in range(2):
    opt.zero_grad()
    (p ** 2).sum().backward()
    opt.step()
print(p.detach().cpu())
