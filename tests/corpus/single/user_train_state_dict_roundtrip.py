# Checkpointing in memory: model.state_dict / load_state_dict, copy.deepcopy, optimizer.state_dict.
import copy
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(8)

model = nn.Sequential(nn.Linear(4, 5), nn.LayerNorm(5), nn.ReLU(), nn.Linear(5, 2)).to(device)
sd = model.state_dict()
print(list(sd.keys()))
print({k: tuple(v.shape) for k, v in sd.items()})
print("requires_grad in state_dict:", sd["0.weight"].requires_grad)

opt = torch.optim.Adam(model.parameters(), lr=0.01)
X = torch.randn(10, 4, device=device)
y = torch.randint(0, 2, (10,), device=device)
for _ in range(3):
    loss = nn.functional.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 4))

checkpoint = copy.deepcopy(model.state_dict())
opt_state = copy.deepcopy(opt.state_dict())
print("opt state keys", sorted(opt_state.keys()), "n states", len(opt_state["state"]))
print("param group", {k: v for k, v in opt_state["param_groups"][0].items() if k in ("lr", "betas", "params")})
print("state 0", sorted(opt_state["state"][0].keys()), "step", opt_state["state"][0]["step"])

snapshot = copy.deepcopy(model)
for _ in range(5):
    loss = nn.functional.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("after more training", round(loss.item(), 4))
print("snapshot differs:", not torch.equal(snapshot[0].weight, model[0].weight))
print("snapshot is separate:", snapshot[0].weight is not model[0].weight)

result = model.load_state_dict(checkpoint)
print(result)
opt.load_state_dict(opt_state)
print("restored step", opt.state_dict()["state"][0]["step"])
with torch.no_grad():
    print("restored matches snapshot:", torch.allclose(model(X), snapshot(X)))

fresh = nn.Sequential(nn.Linear(4, 5), nn.LayerNorm(5), nn.ReLU(), nn.Linear(5, 2)).to(device)
fresh.load_state_dict(snapshot.state_dict())
with torch.no_grad():
    print("fresh copy agrees:", torch.allclose(fresh(X), snapshot(X)))

bad = dict(checkpoint)
del bad["3.bias"]
bad["extra.weight"] = torch.zeros(1)
try:
    fresh.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
print(fresh.load_state_dict(bad, strict=False))
