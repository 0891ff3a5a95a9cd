# nn.Sequential indexing and iteration, Dropout in eval mode / p=0, train()/eval() flags, F.dropout(training=False).
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(5)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Dropout(0.5), nn.Linear(4, 2))
print(model)
print(len(model), type(model[0]).__name__, model[2].p, model[-1].out_features)
print(model.training, model[2].training)
model.eval()
print(model.training, model[2].training, model[0].training)
model = model.to(device)
x = torch.tensor([[1.0, -1.0, 0.5], [0.0, 2.0, -0.5]], device=device)
a = model(x)
b = model(x)
print(a.detach().cpu())
print(torch.equal(a.cpu(), b.cpu()))
h = model[1](model[0](x))
print(torch.allclose(model[3](h).cpu(), a.cpu()))
model.train()
print(model.training, model[2].training)
d0 = nn.Dropout(p=0.0)
print(torch.equal(d0(x).cpu(), x.cpu()))
print(F.dropout(x, p=0.7, training=False).cpu())
print(F.dropout(x, p=0.0).cpu())
print(model[0](x).shape, model[-1].weight.shape)
for i, layer in enumerate(model):
    print(i, layer.__class__.__name__)
seq = nn.Sequential(nn.Tanh(), nn.Sigmoid())
print(seq(torch.tensor([0.0, 1.0], device=device)).cpu())
