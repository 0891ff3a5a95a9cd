# torch.fx as its documentation introduces it: symbolically trace a module,
# read the graph (nodes, ops, targets, users), print the generated code and
# the graph, and run the GraphModule against the module it came from.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.fx

device = "tpu"


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.param = nn.Parameter(torch.rand(3, 4))
        self.linear = nn.Linear(4, 5)

    def forward(self, x):
        return self.linear(x + self.param).clamp(min=0.0, max=1.0)


torch.manual_seed(0)
module = MyModule().to(device)
gm = torch.fx.symbolic_trace(module)
print(gm.graph)
print(gm.code)
for node in gm.graph.nodes:
    print(node.op, node.name, node.target, node.args, node.kwargs, len(node.users))
x = torch.rand(3, 4, device=device)
print(torch.equal(gm(x), module(x)))
print(type(gm).__name__, isinstance(gm, nn.Module), isinstance(gm, torch.fx.GraphModule))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)
        self.norm = nn.LayerNorm(8)

    def forward(self, x, scale=2.0):
        h = F.relu(self.fc1(x))
        h = torch.sigmoid(self.fc2(h)) * scale
        y = self.norm(x + h)
        return y.view(-1, 4).sum(dim=1), y.shape[0]


block = Block().to(device)
traced = torch.fx.symbolic_trace(block)
print(traced.code)
inp = torch.randn(2, 8, device=device)
a, n = traced(inp)
b, m = block(inp)
print(torch.allclose(a, b), n, m)
print([n.name for n in traced.graph.nodes if n.op == "call_module"])
print([n.target for n in traced.graph.nodes if n.op == "call_method"])
