# Custom nn.Module with Parameters, submodules and ModuleList; named_parameters, parameter counts, Parameter printing.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.scale = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return torch.relu(self.lin(x)) * self.scale + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3) for _ in range(2)])
        self.head = nn.Linear(3, 1, bias=False)
        self.offset = nn.Parameter(torch.tensor([0.5]))

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x) + self.offset


p = nn.Parameter(torch.tensor([[1.0, -2.0], [0.5, 3.0]]))
print(p)
print(p.requires_grad, isinstance(p, torch.Tensor), nn.Parameter(torch.zeros(2), requires_grad=False))
net = Net()
for name, param in net.named_parameters():
    print(name, tuple(param.shape), param.requires_grad)
print(sum(q.numel() for q in net.parameters()), len(list(net.parameters())), len(net.blocks))
print(net.offset)
net = net.to(device)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]], device=device)
out = net(x)
print(out.shape, out.detach().cpu())
out.sum().backward()
print(net.offset.grad.cpu(), net.blocks[1].scale.grad.cpu())
print(net.head.weight.grad.cpu())
