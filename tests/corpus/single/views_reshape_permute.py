# View ops: reshape, view, permute, transpose, .T, unsqueeze, squeeze, flatten, expand, contiguous.
import torch

device = "tpu"

x = torch.arange(24.0, device=device).reshape(2, 3, 4)
print(x.view(6, 4).cpu())
print(x.view(-1, 12).shape, x.reshape(4, 3, 2).shape, x.reshape(-1).shape)
p = x.permute(2, 0, 1)
print(p.shape, p[1].cpu())
print(p.is_contiguous(), p.contiguous().is_contiguous())
print(p.contiguous().view(-1)[:8].cpu())
t = x.transpose(1, 2)
print(t.shape, t[0].cpu())
m = torch.arange(6.0, device=device).reshape(2, 3)
print(m.T.cpu(), m.t().shape, m.transpose(0, 1).reshape(6).cpu())
u = m.unsqueeze(0)
print(u.shape, m.unsqueeze(1).shape, m.unsqueeze(-1).shape)
s = torch.zeros(1, 3, 1, 2, device=device)
print(s.squeeze().shape, s.squeeze(0).shape, s.squeeze(2).shape, s.squeeze(1).shape)
print(x.flatten().shape, x.flatten(1).shape, x.flatten(0, 1).shape)
print(x.flatten(1).cpu())
c = torch.tensor([[1.0], [2.0]], device=device)
e = c.expand(2, 3)
print(e.cpu(), e.shape)
print(torch.tensor([5.0, 6.0], device=device).expand(3, -1).cpu())
print(m.reshape(3, 2).cpu())
print(x.permute(1, 0, 2).reshape(3, 8).cpu())
print(x[:, :, None].shape, x.view(2, 12).T.contiguous().view(4, 6).cpu())
