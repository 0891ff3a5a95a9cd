# Optimiser step hooks: global (torch.optim.optimizer) and per optimiser, in
# PyTorch's order, with removable handles; a pre-hook returning something
# other than None or (args, kwargs) is an error.
import torch
from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

w = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.AdamW([w], lr=0.1)
sgd = torch.optim.SGD([w], lr=0.1)
calls = []
h1 = register_optimizer_step_pre_hook(lambda o, a, k: calls.append(("global pre", type(o).__name__, len(a), a[0] is o)))
h2 = register_optimizer_step_post_hook(lambda o, a, k: calls.append(("global post", type(o).__name__)))
h3 = opt.register_step_post_hook(lambda o, a, k: calls.append(("own post", type(o).__name__)))
h4 = opt.register_step_pre_hook(lambda o, a, k: calls.append(("own pre", type(o).__name__)))
w.grad = torch.ones(3)
opt.step()
sgd.step()
h1.remove()
h3.remove()
opt.step()
for c in calls:
    print(c)
print(w)


def bad(o, a, k):
    return 5


opt.register_step_pre_hook(bad)
try:
    opt.step()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(" must ")[1])


def scale_lr(o, a, k):
    for g in o.param_groups:
        g["lr"] = 0.5
    return None


h2.remove()
m = torch.nn.Parameter(torch.zeros(2))
m.grad = torch.ones(2)
s2 = torch.optim.SGD([m], lr=0.1)
s2.register_step_pre_hook(scale_lr)
s2.step()
print(m)
