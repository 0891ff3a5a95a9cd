# StepLR, MultiStepLR and ExponentialLR: the learning rate a training loop sees each epoch.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import StepLR, MultiStepLR, ExponentialLR

device = "tpu"
torch.manual_seed(1)

X = torch.randn(32, 3, device=device)
y = X.sum(dim=1, keepdim=True)


def run(make_scheduler, epochs=8):
    model = nn.Linear(3, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    sched = make_scheduler(opt)
    lrs, losses = [], []
    for epoch in range(epochs):
        loss = nn.functional.mse_loss(model(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 6))
        losses.append(round(loss.item(), 4))
    print(type(sched).__name__, "lrs", lrs)
    print("  losses", losses)
    print("  last_epoch", sched.last_epoch, "group lr", round(opt.param_groups[0]["lr"], 6),
          "initial_lr", opt.param_groups[0]["initial_lr"])
    return sched


run(lambda opt: StepLR(opt, step_size=3, gamma=0.5))
run(lambda opt: MultiStepLR(opt, milestones=[2, 5, 6], gamma=0.1))
sched = run(lambda opt: ExponentialLR(opt, gamma=0.8))
state = sched.state_dict()
print("state keys", sorted(state.keys()))
print("gamma", state["gamma"], "base_lrs", state["base_lrs"], "_last_lr", [round(v, 6) for v in state["_last_lr"]])

# Two param groups decay together, each from its own base lr.
a = nn.Linear(2, 2)
b = nn.Linear(2, 1)
opt = torch.optim.SGD([{"params": a.parameters()}, {"params": b.parameters(), "lr": 1.0}], lr=0.01)
sched = StepLR(opt, step_size=2, gamma=0.1)
for _ in range(5):
    opt.step()
    sched.step()
    print("epoch", sched.last_epoch, [round(lr, 6) for lr in sched.get_last_lr()])
