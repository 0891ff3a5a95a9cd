# Random numbers drawn outside compiled functions: a compiled function with
# no randomness leaves the global RNG stream untouched, so seeded draws
# before/after compiled calls match a run without compilation.
import torch
import torch.nn as nn

device = "tpu"


def run(use_compile):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 3), nn.Tanh()).to(device).eval()
    fwd = torch.compile(model) if use_compile else model
    outs = []
    for _ in range(3):
        x = torch.randn(2, 3, device=device)
        outs.append(fwd(x).detach())
    return outs, torch.rand(2, device=device)


eager_outs, eager_next = run(False)
comp_outs, comp_next = run(True)
for i, (e, c) in enumerate(zip(eager_outs, comp_outs)):
    print(f"step {i}: matches {torch.allclose(e, c, atol=1e-6)} sum {c.sum().item():.4f}")
print(f"next draw matches: {torch.equal(eager_next, comp_next)}")
print(comp_next.cpu())
print(comp_outs[-1].cpu())
