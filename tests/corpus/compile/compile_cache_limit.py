# The recompile limit: torch._dynamo.config.cache_size_limit (alias of
# recompile_limit, default 8); once a function has that many compiled
# versions, further new signatures run eagerly with correct results and no
# new compiles.
import torch
import torch._dynamo

device = "tpu"
torch.manual_seed(0)
print(f"default cache_size_limit: {torch._dynamo.config.cache_size_limit}")
print(f"default recompile_limit: {torch._dynamo.config.recompile_limit}")
torch._dynamo.config.cache_size_limit = 2
print(f"recompile_limit follows: {torch._dynamo.config.recompile_limit}")
compiles = 0


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    return gm.forward


@torch.compile(backend=counting_backend)
def f(x):
    return x * 2 + 1


for dt in [torch.float32, torch.float64, torch.int32, torch.int64, torch.float64]:
    out = f(torch.arange(3, device=device).to(dt))
    print(f"{dt}: {out.cpu()} compiles={compiles}")
compiles = 0


@torch.compile(backend=counting_backend, dynamic=False)
def g(x, k):
    return x * k


for k in [1, 2, 3, 4, 2]:
    print(f"k={k}: {g(torch.ones(2, device=device), k).cpu()} compiles={compiles}")
