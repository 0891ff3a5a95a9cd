# Custom weight initialisation with model.apply and torch.nn.init, seeded so the values repeat.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        if m.bias is not None:
            nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.1)
    elif isinstance(m, nn.Embedding):
        nn.init.normal_(m.weight, mean=0.0, std=0.02)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.proj = nn.Linear(4, 3)
        self.ln = nn.LayerNorm(3)
        self.out = nn.Linear(3, 2, bias=False)

    def forward(self, idx):
        return self.out(self.ln(self.proj(self.emb(idx))))


model = Tiny()
returned = model.apply(init_weights)
print("apply returns the model:", returned is model)
print("proj.weight", [round(v, 4) for v in model.proj.weight.flatten().tolist()])
print("proj.bias", model.proj.bias.tolist(), "ln.bias", model.ln.bias.tolist())
print("emb std ~", round(model.emb.weight.std().item(), 4))
print("out.bias", model.out.bias)

w = torch.empty(6, 5)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print("kaiming_normal_", [round(v, 4) for v in w[0].tolist()])
nn.init.kaiming_uniform_(w, a=0.1)
print("kaiming_uniform_", [round(v, 4) for v in w[1].tolist()])
nn.init.uniform_(w, -0.5, 0.5)
print("uniform_", [round(v, 4) for v in w[2].tolist()])
nn.init.xavier_normal_(w, gain=nn.init.calculate_gain("tanh"))
print("xavier_normal_", [round(v, 4) for v in w[3].tolist()])
nn.init.trunc_normal_(w, std=0.5, a=-0.6, b=0.6)
print("trunc_normal_ within bounds", bool((w.abs() <= 0.6).all()))
print("gains", nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("linear"))
nn.init.eye_(w[:5])
print("eye_ rows", w[:5].sum(dim=1).tolist(), "trace", sum(w[i, i].item() for i in range(5)))
try:
    nn.init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError:", e)

model = model.to(device)
idx = torch.tensor([[1, 2, 3], [4, 5, 6]], device=device)
out = model(idx)
print("output", out.shape, [round(v, 4) for v in out.detach().cpu().flatten().tolist()])
