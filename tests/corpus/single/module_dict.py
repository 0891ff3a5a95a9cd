# nn.ModuleDict and nn.ParameterDict as minGPT and makemore build their
# transformers with them: construction from a dict, indexing, iteration,
# membership, update and deletion, their reprs, their parameters in the
# state_dict and the optimiser; add_module and register_parameter.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
transformer = nn.ModuleDict(dict(
    wte=nn.Embedding(10, 4),
    wpe=nn.Embedding(8, 4),
    h=nn.ModuleList([nn.Linear(4, 4) for _ in range(2)]),
    ln_f=nn.LayerNorm(4),
)).to(device)
print(transformer)
print(len(transformer), list(transformer), "wte" in transformer, "lm_head" in transformer)
print([k for k, _ in transformer.items()], type(transformer["h"]).__name__)
print(sum(p.numel() for p in transformer.parameters()), list(transformer.state_dict())[:4])

idx = torch.tensor([[1, 2, 3]], device=device)
x = transformer.wte(idx) + transformer.wpe(torch.arange(3, device=device))
for block in transformer.h:
    x = x + block(x)
x = transformer.ln_f(x)
print([round(v, 4) for v in x[0, 0].tolist()])

transformer["head"] = nn.Linear(4, 10, bias=False)
transformer.update({"drop": nn.Dropout(0.0)})
del transformer["wpe"]
print(list(transformer.keys()), transformer.pop("drop"))
try:
    transformer["missing"]
except KeyError as e:
    print("KeyError", e)

params = nn.ParameterDict({"scale": nn.Parameter(torch.ones(2, 3)), "shift": torch.zeros(4)})
print(params)
print(type(params["shift"]).__name__, params["shift"].requires_grad, list(params), len(params))
print(nn.ModuleDict(), nn.ParameterDict())

m = nn.Module()
m.add_module("proj", nn.Linear(2, 2))
m.register_parameter("gain", nn.Parameter(torch.ones(2)))
m.register_parameter("unused", None)
print(list(m.state_dict()), m)
for bad in [lambda: m.add_module("a.b", nn.Linear(1, 1)), lambda: m.add_module("training", nn.Linear(1, 1)),
            lambda: m.add_module("", nn.Linear(1, 1)), lambda: m.add_module("x", 3),
            lambda: m.register_parameter("w", torch.ones(2))]:
    try:
        bad()
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
print(torch.typename(torch.ones(2)), torch.typename(torch.ones(2, dtype=torch.int64)), torch.typename(3))
