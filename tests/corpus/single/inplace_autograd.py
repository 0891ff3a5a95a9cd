# In-place ops on tensors in an autograd graph, as ResNet's `out += identity`
# and in-place activations write them: the tensor takes the op's node, its
# version counts the writes, and a value a backward needs that was overwritten
# is PyTorch's error at backward, not a wrong gradient.
import torch

device = "tpu"
torch.manual_seed(0)
w = torch.randn(2, 3, device=device, requires_grad=True)
h = w * 2
h += 1
h.sum().backward()
print(w.grad.cpu(), h.grad_fn.name(), h._version)

a = torch.randn(3, device=device, requires_grad=True)
z = torch.relu(a * 1)
z += a
print(z.grad_fn.name(), z._version)
z.relu_()
print(z.grad_fn.name(), z._version, z.is_leaf)
try:
    z.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
a = torch.randn(3, device=device, requires_grad=True)
q = a * 3
q += a
q.sum().backward()
print(a.grad.cpu())

acc = torch.zeros(3, device=device)
acc += a
acc.mul_(3)
print(acc.grad_fn.name(), acc.requires_grad, acc.is_leaf, acc._version)

x = torch.randn(3, device=device, requires_grad=True)
y = torch.sigmoid(x)
y.mul_(2)
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

b = x.exp()
c = b * x
b += 1
try:
    c.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

leaf = torch.ones(2, device=device, requires_grad=True)
try:
    leaf += 1
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    leaf += 1
print(leaf.detach().cpu(), leaf._version)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.act = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        identity = x
        out = self.fc(x)
        out += identity
        return self.act(out)


block = Block().to(device)
inp = torch.randn(5, 4, device=device, requires_grad=True)
out = block(inp)
out.pow(2).mean().backward()
print(out.grad_fn.name(), inp.grad.cpu(), round(block.fc.weight.grad.sum().item(), 4))
