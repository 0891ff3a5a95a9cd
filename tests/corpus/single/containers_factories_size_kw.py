# ModuleDict's and ParameterDict's keys, items and values as PyTorch returns
# them (dict views; ParameterDict's items and values are generators), the
# random factories and empty given their sizes as size=, and Optimizer.state.
import torch
import torch.nn as nn

device = "tpu"

md = nn.ModuleDict({"enc": nn.Linear(2, 3), "dec": nn.Linear(3, 2)})
print(md.keys())
print(list(md.items())[0][0], [type(v).__name__ for v in md.values()])
print(type(md.items()).__name__, type(md.values()).__name__)
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(2)), "b": torch.zeros(1)})
print(pd.keys())
print(type(pd.items()).__name__, [k for k, _ in pd.items()], [tuple(v.shape) for v in pd.values()])
print(torch.empty(size=(2, 3), device=device).shape)
print(torch.empty(size=[1, 2], dtype=torch.int64).dtype)
torch.manual_seed(0)
print(torch.rand(size=(3,), device=device).cpu(), torch.randn(size=(2, 2)).shape)
opt = torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=0.1, momentum=0.9)
print(type(opt.state).__name__, len(opt.state))
