# The losses beyond MSE and cross-entropy: margin, hinge, soft-margin,
# cosine-embedding, triplet, Poisson and Gaussian NLL, multi-label and
# multi-class margins, each reduced three ways and differentiated.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
a = torch.randn(6, device=device, requires_grad=True)
b = torch.randn(6, device=device)
sign = torch.tensor([1.0, -1.0, 1.0, 1.0, -1.0, -1.0], device=device)


def show(name, loss, leaf):
    leaf.grad = None
    loss.backward()
    print(name, round(loss.item(), 5), [round(v, 5) for v in leaf.grad.reshape(-1).tolist()[:6]])


for red in ["mean", "sum"]:
    show("margin_ranking " + red, F.margin_ranking_loss(a, b, sign, margin=0.3, reduction=red), a)
    show("hinge " + red, F.hinge_embedding_loss(a, sign, margin=0.8, reduction=red), a)
    show("soft_margin " + red, F.soft_margin_loss(a, sign, reduction=red), a)
print(F.hinge_embedding_loss(a, sign, reduction="none").detach().cpu())

x1 = torch.randn(4, 5, device=device, requires_grad=True)
x2 = torch.randn(4, 5, device=device)
x3 = torch.randn(4, 5, device=device)
y = torch.tensor([1, -1, -1, 1], device=device)
show("cosine_embedding", F.cosine_embedding_loss(x1, x2, y, margin=0.1), x1)
print(F.cosine_embedding_loss(x1, x2, y, reduction="none").detach().cpu())
show("triplet", F.triplet_margin_loss(x1, x2, x3, margin=1.5), x1)
show("triplet swap p1", F.triplet_margin_loss(x1, x2, x3, p=1, swap=True), x1)
show("triplet distance", F.triplet_margin_with_distance_loss(
    x1, x2, x3, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v)), x1)

rates = torch.randn(8, device=device, requires_grad=True)
counts = torch.tensor([0.0, 1.0, 2.0, 3.0, 0.0, 5.0, 1.0, 2.0], device=device)
show("poisson log", F.poisson_nll_loss(rates, counts), rates)
show("poisson full", F.poisson_nll_loss(rates, counts, full=True), rates)
show("poisson rate", F.poisson_nll_loss(rates.exp(), counts, log_input=False), rates)

mu = torch.randn(5, 2, device=device, requires_grad=True)
target = torch.randn(5, 2, device=device)
var = torch.rand(5, 2, device=device) + 0.1
show("gaussian", F.gaussian_nll_loss(mu, target, var), mu)
show("gaussian full", F.gaussian_nll_loss(mu, target, var[:, 0], full=True), mu)

logits = torch.randn(3, 4, device=device, requires_grad=True)
labels = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0]], device=device)
show("multilabel soft margin", F.multilabel_soft_margin_loss(logits, labels), logits)
classes = torch.tensor([3, 0, 1], device=device)
show("multi margin", F.multi_margin_loss(logits, classes), logits)
show("multi margin p2", F.multi_margin_loss(logits, classes, p=2, margin=0.5), logits)

for m in [nn.MarginRankingLoss(margin=0.5), nn.HingeEmbeddingLoss(), nn.SoftMarginLoss(), nn.CosineEmbeddingLoss(),
          nn.TripletMarginLoss(), nn.PoissonNLLLoss(), nn.GaussianNLLLoss(), nn.MultiLabelSoftMarginLoss(),
          nn.MultiMarginLoss(), nn.TripletMarginWithDistanceLoss()]:
    print(m)
print(round(nn.TripletMarginLoss(margin=0.5)(x1, x2, x3).item(), 5),
      round(nn.PoissonNLLLoss(log_input=False)(rates.abs() + 0.1, counts).item(), 5),
      round(nn.GaussianNLLLoss()(mu, target, var).item(), 5))
print(round(torch.margin_ranking_loss(a, b, sign, 0.0, 2).item(), 5),
      round(torch.hinge_embedding_loss(a, sign, 1.0, 0).sum().item(), 5),
      round(torch.kl_div(F.log_softmax(a, 0), F.softmax(b, 0), 2).item(), 5))
try:
    nn.TripletMarginLoss(margin=-1.0)
except ValueError as e:
    print("ValueError:", e)
