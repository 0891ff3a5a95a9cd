# The shape mistakes everyone makes, caught and printed: PyTorch's own messages
# for mismatched broadcasts, matmuls, views, cats, indexing and dtype mixes.
import torch

device = "tpu"

a = torch.ones(2, 3, device=device)
b = torch.ones(3, 2, device=device)

def attempt(label, fn):
    try:
        out = fn()
        print(label, "ok", tuple(out.shape))
    except (RuntimeError, IndexError, ValueError, TypeError) as e:
        print(label, type(e).__name__ + ":", e)

attempt("add", lambda: a + b)
attempt("add T", lambda: a + b.T)
attempt("mul 3d", lambda: torch.ones(2, 3, 4, device=device) * torch.ones(3, 3, device=device))
attempt("matmul", lambda: a @ a)
attempt("matmul ok", lambda: a @ b)
attempt("mm 1d", lambda: torch.mm(a, torch.ones(3, device=device)))
attempt("bmm", lambda: torch.bmm(torch.ones(2, 2, 3, device=device), torch.ones(3, 3, 2, device=device)))
attempt("view", lambda: a.view(4, 2))
attempt("reshape", lambda: a.reshape(5, -1))
attempt("view two -1", lambda: a.view(-1, -1))
attempt("cat", lambda: torch.cat([a, b]))
attempt("stack", lambda: torch.stack([a, b]))
attempt("index", lambda: a[2])
attempt("index dim", lambda: a[0, 0, 0])
attempt("index_select", lambda: a.index_select(1, torch.tensor([0, 5], device=device)))
attempt("expand", lambda: a.expand(3, 3))
attempt("transpose", lambda: a.transpose(0, 2))
attempt("sum dim", lambda: a.sum(dim=2))
attempt("squeeze", lambda: a.squeeze(3))
attempt("permute", lambda: a.permute(0))
attempt("gather", lambda: torch.gather(a, 1, torch.tensor([[0, 1, 2, 3]], device=device)))
attempt("where", lambda: torch.where(torch.ones(4, dtype=torch.bool, device=device), a, b))
attempt("float index", lambda: a[torch.tensor([0.0], device=device)])
attempt("masked_fill", lambda: a.masked_fill(torch.ones(2, 3, device=device), 0.0))
attempt("linear", lambda: torch.nn.functional.linear(a, torch.ones(4, 4, device=device)))
attempt("one_hot", lambda: torch.nn.functional.one_hot(torch.tensor([1.0], device=device)))
attempt("argmax", lambda: torch.tensor([], device=device).argmax())
attempt("split", lambda: a.split([1, 1], dim=1))
attempt("chunk", lambda: a.chunk(0))
attempt("unflatten", lambda: a.unflatten(1, (2, 2)))
attempt("flatten", lambda: a.flatten(1, 0))
attempt("repeat", lambda: a.repeat(2))
attempt("cross entropy", lambda: torch.nn.functional.cross_entropy(a, torch.tensor([0, 1, 2], device=device)))
attempt("ones", lambda: torch.ones(-1))
