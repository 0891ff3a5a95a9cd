# fullgraph=True turns graph breaks into errors: print() and a
# data-dependent branch raise torch._dynamo.exc.Unsupported (a RuntimeError);
# .item() and boolean masks compile fine under fullgraph; bad backend and
# mode names are rejected.
import torch
import torch._dynamo

device = "tpu"
torch.manual_seed(0)


def with_print(x):
    print(x)
    return x + 1


def branchy(x):
    if x.sum() > 0:
        return x + 1
    return x - 1


def floats_to_list(x):
    return torch.tensor(x.tolist()) + 1


def uses_item(x):
    return x * x.sum().item()


def masked(x):
    return x[x > 0] * 2


x = torch.randn(2, 3, device=device)
for fn in [with_print, branchy, floats_to_list, uses_item, masked]:
    try:
        out = torch.compile(fn, fullgraph=True)(x)
        print(f"{fn.__name__}: ok, sum {out.sum().item():.4f}")
    except Exception as e:
        print(f"{fn.__name__}: {type(e).__name__} is RuntimeError {isinstance(e, RuntimeError)}")
        print("  " + str(e).splitlines()[0])
    if fn is not with_print:
        print(f"  without fullgraph: {torch.compile(fn)(x).sum().item():.4f}")
try:
    torch.compile(branchy, backend="no_such_backend")
except Exception as e:
    print(type(e).__name__, str(e))
try:
    torch.compile(branchy, mode="fastest")
except Exception as e:
    print(type(e).__name__, str(e))
