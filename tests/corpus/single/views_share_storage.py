# Views share storage: writes through views show up in the base and vice versa.
import torch

device = "tpu"

base = torch.zeros(2, 3, device=device)
v = base.view(6)
v[4] = 7.0
print(base.cpu())
row = base[1]
row += 1.0
print(base.cpu())
col = base[:, 0]
col[:] = -2.0
print(base.cpu())
t = base.T
t[2, 0] = 9.0
print(base.cpu())
base[0, 1] = 3.5
print(v.cpu(), t.cpu())
a = torch.arange(8.0, device=device)
s = a[::2]
s.mul_(10)
print(a.cpu())
r = a.reshape(2, 4)
r[1].zero_()
print(a.cpu())
u = a.unsqueeze(0)
u[0, 0] = 100.0
print(a.cpu(), u.shape)
c = a.contiguous() * 1
c[1] = -1.0
print(a[1].item(), c[1].item())
n = torch.ones(3, device=device)
n_d = n.detach()
n_d[2] = 5.0
print(n.cpu())
ch = torch.arange(6.0, device=device)
p1, p2 = ch.split(3)
p2[0] = 42.0
print(ch.cpu())
