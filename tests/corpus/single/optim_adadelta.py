# torch.optim.Adadelta (mnist_rnn's optimiser) step for step as PyTorch's
# single-tensor loop: its repr, state, weight decay, maximize, a scheduler on
# top, and its argument checks.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)).to(device)
opt = torch.optim.Adadelta(model.parameters(), lr=1.0)
print(opt)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.7)
x = torch.randn(8, 3, device=device)
y = torch.randn(8, 1, device=device)
for step in range(5):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    print(step, round(loss.item(), 5), opt.param_groups[0]["lr"])
state = opt.state[model[0].weight]
print(sorted(state), state["step"].item(), round(state["acc_delta"].sum().item(), 8))

w = torch.ones(3, device=device, requires_grad=True)
opt2 = torch.optim.Adadelta([w], lr=0.5, rho=0.8, eps=1e-4, weight_decay=0.1, maximize=True)
for _ in range(3):
    opt2.zero_grad()
    (w * torch.tensor([1.0, -2.0, 3.0], device=device)).sum().backward()
    opt2.step()
print([round(v, 6) for v in w.tolist()])
for bad in [dict(lr=-1), dict(rho=1.5), dict(eps=-1), dict(weight_decay=-0.1)]:
    try:
        torch.optim.Adadelta([w], **bad)
    except ValueError as e:
        print("ValueError:", e)
