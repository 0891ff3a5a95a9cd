# The schedulers training scripts compose: warmup then decay with SequentialLR,
# ChainedScheduler, ReduceLROnPlateau on a validation loss, cosine annealing
# with warm restarts, PolynomialLR, and their state_dicts.
import torch

device = "tpu"
model = torch.nn.Linear(2, 2).to(device)


def fresh(lr=0.1):
    return torch.optim.SGD(model.parameters(), lr=lr)


opt = fresh()
warmup = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warmup, decay], milestones=[3])
for i in range(6):
    opt.step()
    seq.step()
    print("seq", i, [round(x, 6) for x in seq.get_last_lr()], seq.last_epoch)
print(sorted(seq.state_dict().keys()), len(seq.state_dict()["_schedulers"]))

opt = fresh()
chain = torch.optim.lr_scheduler.ChainedScheduler([
    torch.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2),
    torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
for i in range(4):
    opt.step()
    chain.step()
    print("chain", i, [round(x, 6) for x in chain.get_last_lr()])

opt = fresh(1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, cooldown=1,
                                                     min_lr=0.1)
for i, val in enumerate([1.0, 0.9, 0.95, 0.97, 0.96, 0.99, 0.98, 0.97, 1.1, 1.2]):
    plateau.step(val)
    print("plateau", i, opt.param_groups[0]["lr"], plateau.num_bad_epochs, plateau.best, plateau.get_last_lr())
try:
    torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.5)
except ValueError as e:
    print("ValueError:", e)

opt = fresh()
warm = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
for i in range(10):
    opt.step()
    warm.step()
    print("warm", i, round(warm.get_last_lr()[0], 6), warm.T_cur, warm.T_i)
warm.step(5)
print("warm epoch 5", round(warm.get_last_lr()[0], 6), warm.T_cur, warm.T_i)

opt = fresh()
poly = torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
for i in range(6):
    opt.step()
    poly.step()
    print("poly", i, [round(x, 6) for x in poly.get_last_lr()])
try:
    torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[poly], milestones=[2])
except ValueError as e:
    print("ValueError:", e)
