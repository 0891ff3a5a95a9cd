# Module.compile() compiles in place (returns None, the module keeps its
# class and state_dict keys), compiling a submodule inside a bigger model,
# and torch.compile on a bound forward method.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)

    def forward(self, x):
        return self.norm(x + torch.tanh(self.fc(x)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = torch.compile(Block())
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        return self.out(self.block(x))


net = Net().to(device)
print(type(net.block).__name__, list(net.state_dict().keys()))
x = torch.randn(3, 4, device=device)
print(net(x).detach().cpu())
blk = Block().to(device)
ref = blk(x)
print(f"compile() returns: {blk.compile()}")
print(type(blk).__name__, list(blk.state_dict().keys()))
print(f"in-place compiled matches: {torch.allclose(blk(x), ref, atol=1e-6)}")
fwd = torch.compile(blk.forward)
print(f"compiled bound method matches: {torch.allclose(fwd(x), ref, atol=1e-6)}")
print(f"{fwd(x).abs().sum().item():.4f} {ref.abs().sum().item():.4f}")
