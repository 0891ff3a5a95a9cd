# Dropout draws what PyTorch draws: ATen's CPU dropout is a bernoulli(1 - p)
# noise tensor (one double uniform per element, in order) divided by 1 - p,
# so a seeded model in training mode drops the same units; also
# Tensor.bernoulli_ and torch.bernoulli (with a float and with a tensor of
# probabilities), channel dropout, attention dropout, and eval mode.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(1337)
x = torch.randn(4, 6, device=device)
print([[round(v, 4) for v in row] for row in F.dropout(x, 0.25).tolist()])
drop = nn.Dropout(0.5)
print((drop(torch.ones(2, 8, device=device)) == 0).int().tolist())
drop.eval()
print(torch.equal(drop(x), x))

print(torch.empty(10, device=device).bernoulli_(0.3).tolist())
probs = torch.rand(8, device=device)
print(torch.bernoulli(probs).tolist(), torch.bernoulli(torch.ones(5, device=device), 0.5).tolist())
print(torch.empty(6, dtype=torch.float64).bernoulli_(0.5).tolist())

feature = F.dropout2d(torch.ones(2, 3, 2, 2, device=device), 0.5)
print(feature[:, :, 0, 0].tolist())
print(F.dropout(torch.ones(3, device=device), 1.0).tolist(), F.dropout(torch.ones(3), 0.0).tolist())

q = torch.randn(1, 2, 5, 4, device=device)
out = F.scaled_dot_product_attention(q, q, q, dropout_p=0.3)
print([round(v, 4) for v in out[0, 0, 0].tolist()])

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(32, 8, device=device)
target = torch.randn(32, 1, device=device)
for step in range(5):
    loss = F.mse_loss(model(data), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
y = torch.ones(4, device=device, requires_grad=True)
print(F.dropout(y, 0.5).grad_fn.name())
