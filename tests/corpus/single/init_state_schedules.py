# What checkpoint-loading and initialisation code reaches: Module.to_empty
# then reset_parameters (the FSDP2 recipe's second half), reset_parameters
# on each layer, BatchNorm loading an old or partial state_dict, and the
# cyclic learning-rate schedules with momentum cycling.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(10, 4, padding_idx=0), nn.LayerNorm(4), nn.Linear(4, 3), nn.GroupNorm(1, 3))
model.to_empty(device=device)
print([(n, tuple(p.shape), p.requires_grad) for n, p in model.named_parameters()])
torch.manual_seed(1)
for m in model:
    m.reset_parameters()
print(model[0].weight[:2].detach().cpu(), model[1].weight.detach().cpu(), model[1].bias.detach().cpu())
print(model[2].weight.detach().cpu(), model[3].weight.detach().cpu())
out = model(torch.tensor([[1, 0, 3]], device=device))
print(out.shape, out[0, 1].detach().cpu())
bn = nn.BatchNorm1d(3).to(device)
bn(torch.randn(4, 3, device=device))
bn.to_empty(device=device)
bn.reset_parameters()
print(bn.running_mean.cpu(), bn.running_var.cpu(), bn.num_batches_tracked.item())
conv = nn.Conv2d(1, 2, 2).to(device)
torch.manual_seed(2)
conv.reset_parameters()
print(conv.weight[0, 0].detach().cpu(), conv.bias.detach().cpu())

bn = nn.BatchNorm1d(3)
bn(torch.randn(5, 3))
print(bn.num_batches_tracked.item(), bn.load_state_dict({"weight": torch.full((3,), 2.0)}, strict=False))
print(bn.weight.detach(), bn.num_batches_tracked.item())
old = {"weight": torch.ones(3), "bias": torch.zeros(3), "running_mean": torch.zeros(3), "running_var": torch.ones(3)}
print(bn.load_state_dict(old), bn.num_batches_tracked.item())
sd = nn.BatchNorm1d(3).state_dict()
del sd["num_batches_tracked"]
print(bn.load_state_dict(sd, strict=False))
try:
    bn.load_state_dict(sd)
except RuntimeError as e:
    print("RuntimeError:", e)
net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
print(net.load_state_dict({"0.weight": torch.eye(3)}, strict=False))

w = torch.zeros(2, requires_grad=True)
for kwargs in [dict(mode="triangular"), dict(mode="triangular2"), dict(mode="exp_range", gamma=0.9),
               dict(step_size_down=2), dict(scale_fn=lambda x: 0.5, scale_mode="iterations")]:
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, **kwargs)
    lrs, moms = [], []
    for _ in range(9):
        opt.step()
        sched.step()
        lrs.append(round(sched.get_last_lr()[0], 5))
        moms.append(round(opt.param_groups[0]["momentum"], 4))
    print(kwargs.get("mode", "custom"), lrs, moms)
adam = torch.optim.Adam([w], lr=0.1)
sched = torch.optim.lr_scheduler.CyclicLR(adam, 0.001, 0.01, step_size_up=2)
for _ in range(3):
    adam.step()
    sched.step()
print(adam.param_groups[0]["lr"], adam.param_groups[0]["betas"])
try:
    torch.optim.lr_scheduler.CyclicLR(torch.optim.SGD([w], lr=0.1), 0.01, 0.1)
except ValueError as e:
    print("ValueError:", e)
print(torch.optim.lr_scheduler.CyclicLR(torch.optim.SGD([w], lr=0.1), 0.01, 0.1, cycle_momentum=False).get_last_lr())
