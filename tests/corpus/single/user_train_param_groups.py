# Per-layer learning rates with param_groups, editing lr mid-training, and zero_grad(set_to_none=False).
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(11)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(3, 6), nn.GELU())
        self.head = nn.Linear(6, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


net = Net().to(device)
opt = torch.optim.SGD([
    {"params": net.backbone.parameters(), "lr": 0.001},
    {"params": net.head.parameters()},
], lr=0.1, momentum=0.9, weight_decay=1e-4)
for i, g in enumerate(opt.param_groups):
    print(i, "lr", g["lr"], "momentum", g["momentum"], "weight_decay", g["weight_decay"],
          "nesterov", g["nesterov"], "n_params", len(g["params"]))
print(sorted(opt.defaults.keys()))

x = torch.randn(8, 3, device=device)
target = torch.randint(0, 2, (8,), device=device)
for step in range(6):
    opt.zero_grad(set_to_none=False)
    loss = nn.functional.cross_entropy(net(x), target)
    loss.backward()
    opt.step()
    if step == 2:
        for g in opt.param_groups:
            g["lr"] *= 0.5
        print("halved:", [g["lr"] for g in opt.param_groups])
    print(f"step {step} loss {loss.item():.4f}")

opt.zero_grad(set_to_none=False)
print("grad kept as zeros:", net.head.bias.grad.cpu(), net.head.bias.grad is not None)
opt.zero_grad()
print("default zero_grad sets None:", net.head.bias.grad)

extra = nn.Parameter(torch.zeros(2, device=device))
opt.add_param_group({"params": [extra], "lr": 0.5})
print("groups:", len(opt.param_groups), "new group lr", opt.param_groups[2]["lr"], "momentum", opt.param_groups[2]["momentum"])
(net(x).sum() + (extra * torch.tensor([1.0, -1.0], device=device)).sum()).backward()
opt.step()
print("extra after step", extra.detach().cpu())
try:
    opt.add_param_group({"params": [extra]})
except ValueError as e:
    print("ValueError:", e)
