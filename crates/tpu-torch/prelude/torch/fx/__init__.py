# torch.fx: symbolic tracing into a Graph of Nodes, the Python code PyTorch
# generates from a graph, GraphModule, Interpreter and Transformer, written
# here after PyTorch 2.15's behaviour (its graphs, names, generated code and
# printed forms are what programs print and compare).
#
# How tracing works here, and where it differs from PyTorch: PyTorch's Proxy
# intercepts torch functions through `__torch_function__`; this project's
# torch functions have no such protocol, so while a trace runs the public
# functions of `torch` and `torch.nn.functional` are replaced by wrappers that
# record a node when an argument holds a Proxy (and call through otherwise),
# and are put back after. A function reached through another name than those
# two namespaces' attributes (`from torch import relu` before tracing) is
# called with the Proxy itself. `torch` functions are recorded with the
# arguments as passed, as PyTorch's C functions are; `torch.nn.functional`
# functions written in Python in PyTorch are recorded as PyTorch's
# `handle_torch_function` calls record them: the parameters without a default
# positionally, the rest by keyword with their defaults. Not supported yet:
# `concrete_args`, unpacking a Proxy (`a, b = x.shape`), `torch.fx.passes`,
# `print_readable`, `to_folder` and `torch.fx.experimental`.
# parts: _node.py _graph.py _proxy.py _symbolic_trace.py _graph_module.py _interpreter.py
