# Layers beyond the usual: InstanceNorm (with and without running stats),
# RMSNorm, LocalResponseNorm, EmbeddingBag in its three modes, Bilinear,
# LazyLinear, ParameterList, the alpha dropouts and Dropout3d, distances:
# forward, backward, state_dict keys and reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
x = torch.randn(3, 4, 5, device=device, requires_grad=True)
inorm = nn.InstanceNorm1d(4, affine=True).to(device)
y = inorm(x)
(y * torch.arange(60.0, device=device).reshape(3, 4, 5)).sum().backward()
print(inorm, list(inorm.state_dict().keys()))
print(y[0, 0].detach().cpu(), x.grad[1, 2].cpu(), inorm.weight.grad.cpu())
tracked = nn.InstanceNorm2d(2, track_running_stats=True).to(device)
img = torch.randn(2, 2, 3, 3, device=device) * 3 + 1
tracked(img)
print(tracked, list(tracked.state_dict().keys()))
print(tracked.running_mean.cpu(), tracked.running_var.cpu(), tracked.num_batches_tracked.item())
tracked.eval()
print(tracked(img)[0, 0, 0].cpu())
print(F.instance_norm(img)[1, 1, 1].cpu())

rms = nn.RMSNorm([5]).to(device)
h = torch.randn(2, 3, 5, device=device, requires_grad=True)
r = rms(h)
r.pow(3).sum().backward()
print(rms, r[1, 2].detach().cpu(), rms.weight.grad.cpu())
print(F.rms_norm(h, (3, 5), eps=1e-3)[0, 0].detach().cpu(), nn.RMSNorm(4, eps=1e-6, elementwise_affine=False))
lrn = nn.LocalResponseNorm(3, alpha=0.1, beta=0.5, k=2.0)
print(lrn, lrn(img)[0, 1, 0].cpu(), lrn(torch.randn(2, 4, 3, device=device))[1, :, 0].cpu())

torch.manual_seed(1)
for mode in ["sum", "mean", "max"]:
    bag = nn.EmbeddingBag(10, 3, mode=mode).to(device)
    ids = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9], device=device)
    offsets = torch.tensor([0, 4, 4, 6], device=device)
    out = bag(ids, offsets)
    out.sum().backward()
    print(bag, out.detach().cpu(), bag.weight.grad[:5].cpu())
bag = nn.EmbeddingBag(10, 3, mode="sum", padding_idx=0).to(device)
print(bag, bag(torch.tensor([[1, 0, 2], [0, 0, 3]], device=device)).detach().cpu())
weights = torch.tensor([0.5, 2.0, 1.0, -1.0], device=device)
print(F.embedding_bag(torch.tensor([1, 2, 3, 4], device=device), bag.weight, torch.tensor([0, 2], device=device),
                      mode="sum", per_sample_weights=weights).detach().cpu())
pre = nn.EmbeddingBag.from_pretrained(torch.arange(12.0).reshape(4, 3).to(device), mode="max")
print(pre(torch.tensor([[0, 3], [2, 1]], device=device)).cpu(), pre.weight.requires_grad)

bil = nn.Bilinear(3, 2, 4).to(device)
u = torch.randn(5, 3, device=device)
v = torch.randn(5, 2, device=device)
o = bil(u, v)
o.sum().backward()
print(bil, o[0].detach().cpu(), bil.weight.grad[0].cpu(), bil.bias.grad.cpu())
lazy = nn.LazyLinear(4)
print(lazy)
lz = lazy(torch.randn(2, 6))
print(lazy, lz.shape, type(lazy).__name__, [tuple(p.shape) for p in lazy.parameters()])

plist = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(3, 1)])
plist.append(nn.Parameter(torch.full((2, 2), 0.5)))
print(plist)
print(len(plist), [tuple(p.shape) for p in plist], isinstance(plist[1], nn.Parameter), plist[-1].sum().item())


class Mix(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = nn.ParameterList([nn.Parameter(torch.tensor(float(i + 1))) for i in range(3)])

    def forward(self, t):
        return sum(s * t for s in self.scales)


mix = Mix()
print([n for n, _ in mix.named_parameters()], mix(torch.tensor(2.0)).item())

torch.manual_seed(2)
d = torch.ones(4, 6, device=device)
print(F.alpha_dropout(d, 0.3, training=True).cpu())
print(nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.5)(torch.ones(2, 3, 2, device=device)).cpu())
print(nn.Dropout3d(0.5)(torch.ones(2, 3, 1, 1, 2, device=device)).reshape(2, 6).cpu())
print(F.alpha_dropout(d, 0.3, training=False).equal(d))

p1 = torch.randn(4, 3, device=device)
p2 = torch.randn(4, 3, device=device)
print(nn.PairwiseDistance()(p1, p2).cpu(), nn.PairwiseDistance(p=1.0, keepdim=True)(p1, p2).shape)
print(nn.CosineSimilarity(dim=0)(p1, p2).cpu(), F.pdist(p1).cpu(), torch.pdist(p1, p=1).cpu())
