# torch.compile(module) on an MLP (Linear/GELU/LayerNorm/Dropout in eval):
# the OptimizedModule wrapper, _orig_mod, prefixed state_dict keys, shared
# parameters, train()/eval() passing through, and outputs equal to eager.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(6, 8), nn.GELU(), nn.LayerNorm(8), nn.Dropout(0.1), nn.Linear(8, 3)
).to(device)
cm = torch.compile(model)
print(type(cm).__name__)
print(cm)
print(f"orig is model: {cm._orig_mod is model}")
print(f"is nn.Module: {isinstance(cm, nn.Module)}, is Sequential: {isinstance(cm, nn.Sequential)}")
print(list(cm.state_dict().keys()))
print([n for n, _ in cm.named_parameters()])
print(f"same parameters: {all(a is b for a, b in zip(cm.parameters(), model.parameters()))}")
print(f"training: {cm.training} {model.training}")
r = cm.eval()
print(f"eval returns wrapper: {r is cm}, training: {cm.training} {model.training}")
x = torch.randn(5, 6, device=device)
out = cm(x)
ref = model(x)
print(f"matches eager: {torch.allclose(out, ref, atol=1e-5)}")
print(out.detach().cpu())
cm.train()
print(f"after train(): {cm.training} {model[3].training}")
m2 = nn.Sequential(nn.Linear(6, 8), nn.GELU(), nn.LayerNorm(8), nn.Dropout(0.1), nn.Linear(8, 3))
try:
    m2.load_state_dict(cm.state_dict())
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
m2.load_state_dict(model.state_dict())
print(f"loaded plain keys ok: {torch.equal(m2[0].weight, model[0].weight.cpu())}")
