# Imbalanced binary classification: BCEWithLogitsLoss with pos_weight, thresholds, precision and recall.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(9)

n_pos, n_neg = 12, 68
pos = torch.randn(n_pos, 3) + torch.tensor([1.0, 1.0, 0.0])
neg = torch.randn(n_neg, 3) - torch.tensor([0.5, 0.5, 0.0])
X = torch.cat([pos, neg]).to(device)
y = torch.cat([torch.ones(n_pos), torch.zeros(n_neg)]).to(device)
ratio = n_neg / n_pos
print(f"positives {n_pos}, negatives {n_neg}, pos_weight {ratio:.3f}")


def fit(criterion):
    torch.manual_seed(0)
    model = nn.Linear(3, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(80):
        logits = model(X).squeeze(-1)
        loss = criterion(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, loss.item()


for name, crit in [("plain", nn.BCEWithLogitsLoss()),
                   ("pos_weight", nn.BCEWithLogitsLoss(pos_weight=torch.tensor([ratio], device=device)))]:
    model, final = fit(crit)
    with torch.no_grad():
        prob = torch.sigmoid(model(X).squeeze(-1))
    pred = (prob > 0.5).float()
    tp = (pred * y).sum().item()
    precision = tp / max(pred.sum().item(), 1.0)
    recall = tp / y.sum().item()
    print(f"{name:10s} loss {final:.4f} predicted+ {int(pred.sum().item())} precision {precision:.3f} recall {recall:.3f}")
    print("  ", crit)

logits = torch.tensor([2.0, -1.0, 0.0, 3.0], requires_grad=True)
target = torch.tensor([1.0, 0.0, 1.0, 0.0])
w = torch.tensor([1.0, 2.0, 1.0, 0.5])
for kwargs in [dict(), dict(reduction="sum"), dict(reduction="none"), dict(weight=w), dict(pos_weight=torch.tensor(3.0))]:
    loss = nn.functional.binary_cross_entropy_with_logits(logits, target, **kwargs)
    print(sorted(kwargs), [round(v, 4) for v in loss.detach().reshape(-1).tolist()])
loss = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(3.0))(logits, target)
loss.backward()
print("grad", [round(v, 4) for v in logits.grad.tolist()], "requires_grad", loss.requires_grad)
probs = torch.sigmoid(logits.detach())
print("BCELoss", round(nn.BCELoss()(probs, target).item(), 4), round(nn.functional.binary_cross_entropy(probs, target, weight=w).item(), 4))
try:
    nn.BCEWithLogitsLoss()(logits, target[:3])
except ValueError as e:
    print("ValueError:", e)
