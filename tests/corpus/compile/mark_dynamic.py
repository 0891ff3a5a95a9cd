# torch._dynamo.mark_dynamic: a dimension marked dynamic before the first
# call compiles once for every size of it (without the recompile that
# automatic dynamic shapes makes on the first change), while an unmarked
# dimension's change still recompiles; counted with a custom backend.
import torch
import torch._dynamo

device = "tpu"

graphs = []


def counting(gm, example_inputs):
    graphs.append([tuple(t.shape) for t in example_inputs if isinstance(t, torch.Tensor)])
    return gm.forward


def f(x, w):
    return torch.relu(x @ w).sum(dim=1)


compiled = torch.compile(f, backend=counting)
w = torch.randn(8, 3, device=device)
for rows in (4, 6, 10):
    x = torch.randn(rows, 8, device=device)
    torch._dynamo.mark_dynamic(x, 0)
    out = compiled(x, w)
    print(rows, tuple(out.shape), len(graphs))
w2 = torch.randn(8, 5, device=device)
x = torch.randn(7, 8, device=device)
torch._dynamo.mark_dynamic(x, 0)
print(tuple(compiled(x, w2).shape), len(graphs))
print(torch.allclose(compiled(x, w2).cpu(), f(x, w2).cpu()))
