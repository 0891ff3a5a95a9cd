# Node: one operation of a Graph, in the graph's doubly linked list, with the
# nodes it reads (`all_input_nodes`) and the nodes that read it (`users`).
import builtins as _builtins
import torch


def map_aggregate(a, fn):
    # `fn` applied to every leaf of nested tuples, lists, dicts and slices.
    if isinstance(a, tuple):
        t = tuple(map_aggregate(elem, fn) for elem in a)
        return t if not hasattr(a, "_fields") else type(a)(*t)
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    # `fn` applied to every Node in `a`.
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")


class Node:
    def __init__(self, graph, name, op, target, args, kwargs, return_type=None):
        if op not in _OPS:
            raise AssertionError("Expected op to be one of " + str(_OPS) + ", but got " + op)
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes = {}
        self.users = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self.meta = {}
        self._args = ()
        self._kwargs = {}
        self._update_args_kwargs(args if args is not None else (), kwargs if kwargs is not None else {})

    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        # Puts `x` just before this node.
        if self is x:
            raise AssertionError("Cannot prepend a node to itself")
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        # Puts `x` just after this node.
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, a):
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self):
        return list(self._input_nodes)

    def update_arg(self, idx, arg):
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key, arg):
        self.kwargs = {**self.kwargs, key: arg}

    @property
    def stack_trace(self):
        return self.meta.get("stack_trace", None)

    def _update_args_kwargs(self, new_args, new_kwargs):
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._input_nodes = {}
        self._args = map_arg(new_args, self._add_input)
        self._kwargs = map_arg(new_kwargs, self._add_input)
        for n in self._input_nodes:
            n.users.setdefault(self)

    def _add_input(self, n):
        self._input_nodes.setdefault(n)
        return n

    def __repr__(self):
        return self.name

    def _pretty_print_target(self, target):
        if isinstance(target, str):
            return target
        if hasattr(target, "__module__"):
            name = getattr(target, "__name__", None)
            if name is None:
                return _get_qualified_name(target)
            if target.__module__ == "builtins":
                return "builtins." + name
            if target.__module__ == "_operator":
                return "operator." + name
        return _get_qualified_name(target)

    def format_node(self, placeholder_names=None, maybe_return_typename=None):
        if self.op == "placeholder":
            arg_str = self.target
            # PyTorch's test, so that Graph.__str__ (which passes an empty
            # list) prints placeholders as nodes.
            if placeholder_names:
                placeholder_names.append(arg_str)
                return None
            default_val = "(default=" + str(self.args[0]) + ")" if self.args else ""
            return ("%" + self.name + " : [num_users=" + str(len(self.users)) + "] = " + self.op
                    + "[target=" + self.target + "]" + default_val)
        if self.op == "get_attr":
            return ("%" + self.name + " : [num_users=" + str(len(self.users)) + "] = " + self.op
                    + "[target=" + self._pretty_print_target(self.target) + "]")
        if self.op == "output":
            return "return " + str(self.args[0])
        return ("%" + self.name + " : [num_users=" + str(len(self.users)) + "] = " + self.op
                + "[target=" + self._pretty_print_target(self.target) + "](args = "
                + _format_arg(self.args) + ", kwargs = " + _format_arg(self.kwargs) + ")")

    def replace_all_uses_with(self, replace_with, delete_user_cb=lambda user: True, *, propagate_meta=False):
        if propagate_meta:
            for k, v in self.meta.items():
                replace_with.meta.setdefault(k, v)
        to_process = list(self.users)
        skipped = []
        for use_node in to_process:
            if not delete_user_cb(use_node):
                skipped.append(use_node)
                continue
            use_node._replace_input(self, replace_with)
        return [n for n in to_process if n not in skipped]

    def replace_input_with(self, old_input, new_input):
        self._replace_input(old_input, new_input)

    def _replace_input(self, old, new):
        def swap(n):
            return new if n is old else n

        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def is_impure(self, impure_random=True):
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_function":
            return self.target in _side_effectful_functions
        if self.op == "call_module":
            target_mod = self.graph.owning_module.get_submodule(self.target) if self.graph.owning_module else None
            return getattr(target_mod, "_is_impure", False)
        return False


_side_effectful_functions = set()


def _format_arg(arg, max_list_len=float("inf")):
    # The form `Graph.__str__` prints arguments in (nodes as %name).
    if hasattr(arg, "_custom_fx_repr_fn"):
        return arg._custom_fx_repr_fn()
    if isinstance(arg, list):
        items = ", ".join(_format_arg(a) for idx, a in enumerate(arg) if idx < max_list_len)
        maybe_len = "" if len(arg) < max_list_len + 1 else ", ...[total_len=" + str(len(arg)) + "]"
        return "[" + items + maybe_len + "]"
    if isinstance(arg, tuple):
        items = ", ".join(_format_arg(a) for idx, a in enumerate(arg) if idx < max_list_len)
        maybe_len = "" if len(arg) < max_list_len + 1 else ", ...[total_len=" + str(len(arg)) + "]"
        maybe_comma = "," if len(arg) == 1 else ""
        return "(" + items + maybe_comma + maybe_len + ")"
    if isinstance(arg, dict):
        items_str = ", ".join(str(k) + ": " + _format_arg(v) for k, v in arg.items())
        return "{" + items_str + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


# Functions of torch.nn.functional that PyTorch writes in C under another
# module (`F.gelu` is `torch._C._nn.gelu`), by the name generated code uses.
_C_FUNCTIONAL = {
    "adaptive_avg_pool1d": "torch.adaptive_avg_pool1d", "avg_pool1d": "torch.avg_pool1d",
    "avg_pool2d": "torch._C._nn.avg_pool2d", "avg_pool3d": "torch._C._nn.avg_pool3d",
    "bilinear": "torch.bilinear", "conv1d": "torch.conv1d", "conv2d": "torch.conv2d", "conv3d": "torch.conv3d",
    "conv_transpose1d": "torch.conv_transpose1d", "conv_transpose2d": "torch.conv_transpose2d",
    "conv_transpose3d": "torch.conv_transpose3d", "cosine_similarity": "torch.cosine_similarity",
    "gelu": "torch._C._nn.gelu", "hardshrink": "torch.hardshrink", "linear": "torch._C._nn.linear",
    "logsigmoid": "torch._C._nn.log_sigmoid", "one_hot": "torch._C._nn.one_hot",
    "pairwise_distance": "torch.pairwise_distance", "pdist": "torch.pdist", "pixel_shuffle": "torch.pixel_shuffle",
    "pixel_unshuffle": "torch.pixel_unshuffle", "prelu": "torch.prelu", "relu_": "torch.relu_",
    "scaled_dot_product_attention": "torch._C._nn.scaled_dot_product_attention",
    "softplus": "torch._C._nn.softplus", "softshrink": "torch._C._nn.softshrink",
}


def _get_qualified_name(func):
    # The dotted name generated code calls `func` by (`torch.relu`).
    name = func.__name__
    if getattr(_builtins, name, None) is func:
        return name
    module = getattr(func, "__module__", None) or ""
    if module == "torch.nn.functional" and name in _C_FUNCTIONAL:
        return _C_FUNCTIONAL[name]
    if name == "<lambda>":
        raise RuntimeError("Unable to represent lambda")
    return module + "." + name


def _expose_c_functional():
    # `torch._C._nn` as PyTorch has it (the functional functions written in C),
    # so that generated code naming `torch._C._nn.gelu` runs; a table entry
    # whose name does not resolve here falls back to torch.nn.functional's.
    import types as _types
    import torch.nn.functional as F

    try:
        nn_c = torch._C._nn
    except (AttributeError, NotImplementedError):
        nn_c = None
    if nn_c is None:
        nn_c = _types.ModuleType("torch._C._nn")
        try:
            torch._C._nn = nn_c
        except (AttributeError, TypeError, NotImplementedError):
            pass
    for name, path in list(_C_FUNCTIONAL.items()):
        fn = vars(F).get(name)
        if path.startswith("torch._C._nn.") and fn is not None:
            setattr(nn_c, path.rsplit(".", 1)[1], fn)
        obj = torch
        try:
            for part in path.split(".")[1:]:
                obj = getattr(obj, part)
        except (AttributeError, NotImplementedError):
            obj = None
        if not callable(obj):
            del _C_FUNCTIONAL[name]


_expose_c_functional()
Argument = object
Target = object
