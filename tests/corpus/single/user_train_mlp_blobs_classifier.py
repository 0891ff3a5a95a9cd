# A two-layer MLP on three Gaussian blobs: CrossEntropyLoss, accuracy via argmax, train/eval modes.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(42)

centers = torch.tensor([[2.0, 2.0], [-2.0, 0.0], [1.0, -2.5]])
points, labels = [], []
for k in range(3):
    points.append(centers[k] + 0.8 * torch.randn(40, 2))
    labels.append(torch.full((40,), k, dtype=torch.long))
X = torch.cat(points).to(device)
Y = torch.cat(labels).to(device)
print("data", tuple(X.shape), Y.dtype, [(Y == k).sum().item() for k in range(3)])


class MLP(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.fc2 = nn.Linear(hidden, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.norm(self.fc1(x))))


model = MLP().to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.02)


def accuracy(logits, target):
    return (logits.argmax(dim=1) == target).float().mean().item()


for epoch in range(40):
    model.train()
    logits = model(X)
    loss = loss_fn(logits, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        model.eval()
        with torch.no_grad():
            eval_logits = model(X)
        print(f"epoch {epoch + 1}: loss={loss.item():.4f} eval_acc={accuracy(eval_logits, Y):.3f} training={model.training}")

model.eval()
with torch.no_grad():
    probs = F.softmax(model(centers.to(device)), dim=1)
print("center predictions", probs.argmax(1).cpu().tolist())
print("center confidence", [round(p, 3) for p in probs.max(1).values.cpu().tolist()])
print("norm.training", model.norm.training, "fc1.training", model.fc1.training)
