# Compiled training: a torch.compile'd module's forward inside a normal
# loop with cross_entropy, loss.backward() and AdamW; the compiled losses
# and final weights equal an eager run from the same seed.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"


def train(use_compile):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.LayerNorm(16), nn.Linear(16, 4)).to(device)
    fwd = torch.compile(model) if use_compile else model
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01)
    x = torch.randn(32, 8, device=device)
    y = torch.randint(0, 4, (32,), device=device)
    losses = []
    for _ in range(6):
        opt.zero_grad()
        loss = F.cross_entropy(fwd(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model


eager_losses, eager_model = train(False)
comp_losses, comp_model = train(True)
print("eager:   ", " ".join(f"{v:.4f}" for v in eager_losses))
print("compiled:", " ".join(f"{v:.4f}" for v in comp_losses))
print(f"losses decreased: {comp_losses[-1] < comp_losses[0]}")
same = all(torch.allclose(a, b, atol=1e-5) for a, b in zip(eager_model.parameters(), comp_model.parameters()))
print(f"final weights match: {same}")
print(f"grad on last layer bias: {comp_model[3].bias.grad.abs().sum().item():.4f}")
print(comp_model[3].bias.detach().cpu())
