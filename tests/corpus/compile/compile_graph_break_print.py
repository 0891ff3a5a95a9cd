# print() inside a compiled function is a graph break: the print runs on
# every call (eagerly, between two compiled graphs), values are right, and
# a counting backend sees 2 graphs for the first call and none after.
import torch
import torch._dynamo

device = "tpu"
torch.manual_seed(0)
graphs = 0


def counting_backend(gm, example_inputs):
    global graphs
    graphs += 1
    return gm.forward


def step_fn(x):
    y = torch.relu(x) * 3
    print("inside step:", y[0].cpu())
    return y - 1


step = torch.compile(step_fn, backend=counting_backend)

x = torch.randn(2, 3, device=device)
for i in range(3):
    out = step(x)
    print(f"call {i}: out sum {out.sum().item():.4f}, graphs so far {graphs}")
print(step(torch.ones(1, 3, device=device)).cpu())
print(f"graphs after a new shape: {graphs}")
torch._dynamo.reset()
e = torch._dynamo.explain(step_fn)(x)
print(f"explain: graph_count={e.graph_count} graph_break_count={e.graph_break_count}")
print("reason:", e.break_reasons[0].reason.splitlines()[0])
