# torch.compiler.reset() / torch._dynamo.reset() clear compiled code so the
# next call compiles again; torch.compiler.is_compiling() is True only while
# tracing; torch.compiler.disable / torch._dynamo.disable run a helper eagerly
# (splitting the caller into two graphs).
import torch
import torch._dynamo

device = "tpu"
torch.manual_seed(0)
compiles = 0


def counting_backend(gm, example_inputs):
    global compiles
    compiles += 1
    return gm.forward


@torch.compile(backend=counting_backend)
def f(x):
    return x.sin() + 1


x = torch.randn(3, device=device)
f(x)
f(x)
print(f"before reset: compiles={compiles}")
torch.compiler.reset()
f(x)
print(f"after torch.compiler.reset: compiles={compiles}")
torch._dynamo.reset()
f(x)
f(x)
print(f"after torch._dynamo.reset: compiles={compiles}")
print(f"is_compiling outside: {torch.compiler.is_compiling()}")
probe = torch.compile(lambda t: t + (1 if torch.compiler.is_compiling() else 100))
print("is_compiling inside:", probe(torch.zeros(2, device=device)).cpu())


@torch.compiler.disable
def helper(t):
    print(f"  helper is_compiling={torch.compiler.is_compiling()}")
    return t * 10


@torch._dynamo.disable
def helper2(t):
    return t * 100


def caller(t):
    return helper(t + 1) - helper2(t)


compiles = 0
c = torch.compile(caller, backend=counting_backend)
print(c(x).cpu())
print(f"graphs for caller: {compiles}, matches eager {torch.allclose(c(x), caller(x))}")
