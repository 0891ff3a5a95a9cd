# Graph transformations in the style of torch.fx's documentation: replace an
# op, insert a node, delete one, eliminate dead code, recompile; an Interpreter
# that counts calls; a graph built by hand.
import operator
import torch
import torch.fx as fx

device = "tpu"


def f(x, y):
    z = torch.add(x, y)
    unused = z * 3
    w = torch.relu(z) + y.neg()
    return w.sum(dim=0)


gm = fx.symbolic_trace(f)
print(gm.code)

# Replace torch.add with torch.mul.
for node in gm.graph.nodes:
    if node.op == "call_function" and node.target == torch.add:
        node.target = torch.mul
gm.graph.eliminate_dead_code()
gm.recompile()
print(gm.code)

# Insert a call after relu: relu(z) -> sigmoid(relu(z)).
for node in gm.graph.nodes:
    if node.op == "call_function" and node.target == torch.relu:
        with gm.graph.inserting_after(node):
            new = gm.graph.call_function(torch.sigmoid, (node,))
            node.replace_all_uses_with(new)
            new.args = (node,)
gm.graph.lint()
gm.recompile()
print(gm.code)

x = torch.arange(6.0, device=device).reshape(2, 3)
y = torch.ones(2, 3, device=device)
print(gm(x, y).cpu())
print((torch.sigmoid(torch.relu(x * y)) + y.neg()).cpu())


class CountCalls(fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.calls = []

    def call_function(self, target, args, kwargs):
        self.calls.append(target.__name__)
        return super().call_function(target, args, kwargs)

    def call_method(self, target, args, kwargs):
        self.calls.append("." + target)
        return super().call_method(target, args, kwargs)


interp = CountCalls(gm)
out = interp.run(x, y)
print(out.cpu(), interp.calls)


graph = fx.Graph()
a = graph.placeholder("a")
b = graph.call_function(operator.mul, (a, 2))
c = graph.call_method("exp", (b,))
graph.output(c)
print(graph)
mod = fx.GraphModule(torch.nn.Module(), graph)
print(mod(torch.zeros(3, device=device)).cpu())
print([n.name for n in graph.nodes], list(graph.nodes)[1].prev.name, list(graph.nodes)[1].next.name)
