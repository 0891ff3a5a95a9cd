# An exponential-moving-average tracker and a hand-written optimizer step, all
# with in-place tensor methods and out= arguments, checking storage is shared.
import torch

device = "tpu"
torch.manual_seed(5)

w = torch.randn(3, 2, device=device)
grad = torch.randn(3, 2, device=device)
ema = w.clone()
view = ema[0]

for step in range(3):
    ema.mul_(0.9).add_(w, alpha=0.1)
    w.sub_(grad, alpha=0.01)
print(ema.cpu())
print("view follows:", torch.equal(view, ema[0]))

m = torch.zeros(3, 2, device=device)
v = torch.zeros(3, 2, device=device)
m.mul_(0.9).add_(grad, alpha=0.1)
v.mul_(0.999).addcmul_(grad, grad, value=0.001)
denom = v.sqrt().add_(1e-8)
w.addcdiv_(m, denom, value=-0.001)
print(w.cpu())

x = torch.tensor([-1.5, 0.25, 2.0, -0.75], device=device)
y = x.clone()
y.abs_().sqrt_().neg_()
print(y.tolist())
y = x.clone()
y.clamp_(min=-1.0, max=1.0).mul_(2)
print(y.tolist())
y.clamp_min_(0.0)
print(y.tolist())
z = x.clone()
z.exp_().log_()
print(torch.allclose(z, x))
z.floor_()
print(z.tolist())
z = x.clone()
z.sign_(); print(z.tolist())
z = x.clone()
z.sigmoid_(); z.tanh_(); print([round(v, 5) for v in z.tolist()])
z = x.clone(); z.square_(); z.reciprocal_(); print(z.tolist())
z = x.clone(); z.pow_(2).div_(2); z.fmod_(1.0); print(z.tolist())
z = x.clone(); z.round_(); z.trunc_(); print(z.tolist())
z = x.clone(); z.remainder_(1.0); print(z.tolist())
z = x.clone(); z.lerp_(torch.ones(4, device=device), 0.5); z.masked_fill_(z > 1, 0.0); print(z.tolist())
z = x.clone(); z.copy_(torch.arange(4, device=device)); print(z.tolist(), z.dtype)
z.index_fill_(0, torch.tensor([0, 2], device=device), -1.0); print(z.tolist())
z.index_add_(0, torch.tensor([1, 1], device=device), torch.tensor([10.0, 20.0], device=device)); print(z.tolist())
n = torch.arange(6, device=device)
n.mul_(3).floor_divide_(2)
print(n.tolist())

out = torch.empty(4, device=device)
torch.add(x, 1, out=out); print(out.tolist())
torch.mul(x, x, out=out); print(out.tolist())
torch.clamp(x, 0, 1, out=out); print(out.tolist())
torch.exp(torch.zeros(4, device=device), out=out); print(out.tolist())
s = torch.empty((), device=device)
torch.sum(x, dim=0, out=s); print(s.item())

leaf = torch.ones(2, requires_grad=True)
try:
    leaf.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.arange(3, device=device).add_(0.5)
except RuntimeError as e:
    print("RuntimeError:", e)
