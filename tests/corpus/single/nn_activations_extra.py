# The activations beyond ReLU and GELU, as functions and as modules: values,
# gradients (through autograd), reprs, and the in-place forms.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
x = torch.linspace(-4.0, 4.0, 9, device=device)
for name in ["celu", "selu", "softplus", "softsign", "softshrink", "hardshrink", "tanhshrink", "logsigmoid",
             "mish", "hardsigmoid", "hardswish"]:
    fn = getattr(F, name)
    xg = x.clone().requires_grad_(True)
    y = fn(xg)
    y.sum().backward()
    print(name, [round(v, 4) for v in y.tolist()], [round(v, 4) for v in xg.grad.tolist()])

print(F.softplus(x, beta=2.0, threshold=3.0).cpu())
print(F.celu(x, alpha=0.5).cpu())
print(F.threshold(x, 1.5, -7.0).cpu())
print(F.softshrink(x, 1.0).cpu(), F.hardshrink(x, 2.5).cpu())
print(F.glu(torch.arange(12.0, device=device).reshape(3, 4) / 10, dim=1).cpu())
print(F.softmin(torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]], device=device), dim=1).cpu())

torch.manual_seed(0)
prelu = nn.PReLU(3).to(device)
inp = torch.randn(2, 3, 4, device=device, requires_grad=True)
out = prelu(inp)
out.pow(2).sum().backward()
print(prelu, out[0, :, :2].detach().cpu())
print(prelu.weight.grad.cpu(), inp.grad[1, 2].cpu())
print(F.prelu(torch.tensor([-2.0, 3.0], device=device), torch.tensor([0.1], device=device)).cpu())
print(F.rrelu(x).cpu())

mods = [nn.CELU(0.5), nn.SELU(), nn.Softplus(beta=2.0), nn.Softsign(), nn.Softshrink(0.3), nn.Hardshrink(),
        nn.Tanhshrink(), nn.Threshold(0.1, 20.0), nn.LogSigmoid(), nn.Mish(), nn.Hardsigmoid(), nn.Hardswish(),
        nn.GLU(), nn.Softmin(dim=1), nn.Softmax2d(), nn.RReLU(0.1, 0.3)]
for m in mods:
    print(m)
seq = nn.Sequential(nn.Linear(4, 6), nn.Mish(), nn.Linear(6, 6), nn.Hardswish(), nn.Linear(6, 4), nn.GLU()).to(device)
y = seq(torch.randn(5, 4, device=device))
print(y.shape, [round(v, 4) for v in y[0].tolist()])
img = torch.randn(2, 3, 2, 2, device=device)
print(nn.Softmax2d()(img).sum(1).cpu())

z = torch.tensor([-1.5, 0.5, 2.0], device=device)
F.relu_(z)
print(z.cpu())
z = torch.tensor([-1.5, 0.5, 2.0], device=device)
F.elu_(z)
F.leaky_relu_(z, 0.2)
print(z.cpu())
z = torch.tensor([-1.5, 0.5, 2.0], device=device)
torch.selu_(z)
print(z.cpu(), torch.celu(torch.tensor([-1.0], device=device), 2.0).cpu())
print(torch.threshold(x, 0.0, 9.0).cpu(), torch.hardshrink(x, 1.0).cpu())
print(F.has_torch_function((x,)), F.TYPE_CHECKING)
