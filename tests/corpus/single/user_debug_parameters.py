# Looking at a model's parameters while debugging a fine-tune: printing them,
# freezing a part, checking requires_grad and is_leaf, and confirming which
# ones the optimizer will actually update.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(5)

model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
print(model[0].weight)
print(model[2].bias)
print(type(model[0].weight).__name__, isinstance(model[0].weight, nn.Parameter), isinstance(model[0].weight, torch.Tensor))

for p in model[0].parameters():
    p.requires_grad = False
model = model.to(device)
for name, p in model.named_parameters():
    print(name, p.requires_grad, p.is_leaf, p.grad is None, p.dtype, tuple(p.shape))

trainable = [p for p in model.parameters() if p.requires_grad]
print("trainable tensors:", len(trainable), "frozen:", sum(1 for p in model.parameters() if not p.requires_grad))
opt = torch.optim.Adam(trainable, lr=0.1)

x = torch.randn(4, 3, device=device)
before = model[0].weight.detach().cpu().clone()
loss = model(x).pow(2).mean()
print("loss", round(loss.item(), 5), loss.requires_grad, loss.grad_fn is not None)
loss.backward()
for name, p in model.named_parameters():
    print(name, None if p.grad is None else [round(g, 5) for g in p.grad.flatten().tolist()])
opt.step()
print("frozen unchanged:", torch.equal(before, model[0].weight.detach().cpu()))

# Intermediate results are not leaves and keep no .grad unless asked.
h = model[0](x)
try:
    h.retain_grad()
except RuntimeError as e:
    print("RuntimeError:", e)
h = model[0](x.clone().requires_grad_())
h.retain_grad()
out = model[2](torch.relu(h)).sum()
out.backward()
print(h.is_leaf, h.requires_grad, h.grad is not None, model[0].weight.grad)

# detach() and torch.no_grad() both give tensors without history.
with torch.no_grad():
    y = model(x)
print(y.requires_grad, model(x).detach().requires_grad, y.grad_fn)

# Unfreeze and check again; state_dict holds plain tensors.
model[0].weight.requires_grad_(True)
print([p.requires_grad for p in model.parameters()])
sd = model.state_dict()
print(list(sd.keys()), type(sd["0.weight"]).__name__, sd["0.weight"].requires_grad)
print(model[2].weight.data.cpu(), model[2].weight.cpu().detach().numel())
