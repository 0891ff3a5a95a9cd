# BatchNorm1d/2d: training with running statistics, momentum (and None), eval mode,
# affine=False, track_running_stats=False, buffers and state_dict; gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(5)
bn = nn.BatchNorm2d(3).to(device)
print(bn, [n for n, _ in bn.named_buffers()], list(bn.state_dict().keys()))
x = torch.randn(4, 3, 5, 5, device=device) * 2 + 1
for step in range(3):
    y = bn(x * (step + 1))
    print(step, [round(v, 4) for v in bn.running_mean.tolist()], [round(v, 4) for v in bn.running_var.tolist()],
          bn.num_batches_tracked.item())
print(round(y.mean().item(), 4), round(y.std().item(), 4))
bn.eval()
print([round(v, 4) for v in bn(x)[0, :, 0, 0].tolist()])
cma = nn.BatchNorm1d(4, momentum=None).to(device)
for k in range(3):
    cma(torch.randn(6, 4, device=device) + k)
print(cma, [round(v, 4) for v in cma.running_mean.tolist()], cma.num_batches_tracked.item())
plain = nn.BatchNorm1d(2, affine=False, track_running_stats=False, eps=1e-3).to(device)
seq = torch.randn(3, 2, 4, device=device)
print(plain, plain.running_mean, [round(v, 4) for v in plain(seq)[0, 1].tolist()])
plain.eval()
print([round(v, 4) for v in plain(seq)[0, 1].tolist()])
f = F.batch_norm(seq, torch.zeros(2, device=device), torch.ones(2, device=device), training=False)
print([round(v, 4) for v in f[1, 0].tolist()])
bn.train()
xr = x.clone().requires_grad_()
out = bn(xr)
print(out.grad_fn.name())
(out * torch.arange(out.numel(), device=device).view(out.shape) / 100).sum().backward()
print([round(v, 4) for v in xr.grad[0, 0, 0].tolist()])
print([round(v, 4) for v in bn.weight.grad.tolist()], [round(v, 4) for v in bn.bias.grad.tolist()])
bn.eval()
xr.grad = None
(bn(xr) ** 2).sum().backward()
print([round(v, 4) for v in xr.grad[1, 2, 1].tolist()])
