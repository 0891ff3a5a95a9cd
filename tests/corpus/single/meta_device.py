# The meta device: tensors with shapes and dtypes but no data, as large-model
# code builds a model before placing it: reprs, shape propagation through
# ops and modules, the errors a read gives, no random draws, `with
# torch.device(...)` and set_default_device, and to_empty.
import torch
import torch.nn as nn

device = "tpu"
x = torch.empty(2, 3, device="meta")
print(x, torch.zeros(3, dtype=torch.int64, device="meta"), torch.tensor(1.0, device="meta"))
print(x.is_meta, x.device, (x * 2 + 1).device, x.sum(), x.mean(1).shape, (x @ x.t()).shape)
for f in [lambda: x.item(), lambda: x.tolist(), lambda: x.cpu(), lambda: x.to(device), lambda: x.numpy(),
          lambda: bool(x[0, 0])]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
with torch.device("meta"):
    m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.LayerNorm(3))
print(m[0].weight)
print(m, m(torch.empty(5, 4, device="meta")).shape)
try:
    m.to(device)
except NotImplementedError as e:
    print("NotImplementedError:", e)
torch.manual_seed(0)
state = torch.get_rng_state()
with torch.device("meta"):
    nn.Linear(100, 100)
    torch.randn(5)
print(torch.equal(state, torch.get_rng_state()))
m.to_empty(device=device)
torch.manual_seed(3)
m[0].reset_parameters()
m[2].reset_parameters()
print(m[0].weight.device == torch.device(device), m[0].weight.detach().cpu(), m[2].bias.detach().cpu())
print(m(torch.ones(2, 4, device=device)).detach().cpu())
torch.set_default_device("meta")
print(torch.ones(2).device, torch.get_default_device(), nn.Linear(2, 2).weight.is_meta)
torch.set_default_device(None)
print(torch.ones(2).device, torch.device("meta"), torch.device("meta").type, torch.device("meta").index)
y = torch.randn(3, 4).to("meta")
print(y.device, nn.Linear(2, 2).to("meta").weight.device)
