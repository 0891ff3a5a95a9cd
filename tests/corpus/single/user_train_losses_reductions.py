# The regression and distribution losses people reach for, with reduction='none'/'sum' and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
pred = torch.tensor([[0.5, 2.0, -1.0], [3.0, 0.1, 0.0]], device=device, requires_grad=True)
target = torch.tensor([[0.0, 2.5, 1.0], [0.5, 0.0, 0.2]], device=device)

for loss_fn in [nn.L1Loss(), nn.MSELoss(reduction="sum"), nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5),
                nn.HuberLoss(), nn.HuberLoss(delta=0.3, reduction="sum"), nn.L1Loss(reduction="none")]:
    pred.grad = None
    loss = loss_fn(pred, target)
    loss.sum().backward()
    grad = pred.grad
    print(repr(loss_fn).ljust(30), [round(v, 4) for v in loss.detach().cpu().reshape(-1).tolist()],
          "grad", [round(v, 3) for v in grad.cpu().reshape(-1).tolist()])

logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0], [2.0, -1.0, 0.0]], device=device, requires_grad=True)
labels = torch.tensor([1, 2, 0, 2], device=device)
log_probs = F.log_softmax(logits, dim=1)
print("NLLLoss", round(nn.NLLLoss()(log_probs, labels).item(), 4),
      "sum", round(nn.NLLLoss(reduction="sum")(log_probs, labels).item(), 4),
      "none", [round(v, 4) for v in nn.NLLLoss(reduction="none")(log_probs, labels).detach().cpu().tolist()])
print("NLL weighted", round(F.nll_loss(log_probs, labels, weight=torch.tensor([1.0, 2.0, 0.5], device=device)).item(), 4))
for eps in [0.0, 0.1, 0.3]:
    ce = nn.CrossEntropyLoss(label_smoothing=eps)
    logits.grad = None
    loss = ce(logits, labels)
    loss.backward()
    grad = logits.grad
    print(f"CE smoothing={eps}", round(loss.item(), 4), "grad row0", [round(v, 4) for v in grad[0].cpu().tolist()])
print(nn.CrossEntropyLoss(label_smoothing=0.1, reduction="none")(logits, labels).detach().cpu())
soft = torch.tensor([[0.2, 0.7, 0.1], [0.0, 0.1, 0.9], [1 / 3, 1 / 3, 1 / 3], [0.5, 0.0, 0.5]], device=device)
print("CE soft targets", round(F.cross_entropy(logits, soft).item(), 4))

kl = nn.KLDivLoss(reduction="batchmean")
print("KLDiv batchmean", round(kl(log_probs, soft).item(), 4))
print("KLDiv sum", round(F.kl_div(log_probs, soft, reduction="sum").item(), 4))
print("KLDiv log_target", round(F.kl_div(log_probs, soft.clamp(min=1e-6).log(), reduction="batchmean", log_target=True).item(), 4))
print("KLDiv none", F.kl_div(log_probs, soft, reduction="none").detach().cpu())
try:
    nn.L1Loss(reduction="avg")(pred, target)
except ValueError as e:
    print("ValueError:", e)
