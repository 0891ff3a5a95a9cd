# Graph: the nodes in order, their names, and the Python code generated from
# them, in PyTorch's form (`python_code`, `__str__`, `print_tabular`).
import builtins as _builtins
import keyword as _keyword
import math as _math
import operator as _operator
import re as _re
import inspect as _inspect

_illegal_names = {k: object() for k in _keyword.kwlist}
_illegal_names.update(_builtins.__dict__)
# The names generated code takes from its globals.
_custom_builtins = {"inf": _math.inf, "nan": _math.nan, "NoneType": type(None), "torch": torch}
_illegal_names.update(_custom_builtins)
_illegal_names["device"] = torch.device

_name_regex = _re.compile(r"^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$")
_illegal_char_regex = _re.compile("[^0-9a-zA-Z_]+")
_snake_case_sub = _re.compile(r"(?<=[a-z])([A-Z])")
_torch_but_not_dynamo = _re.compile(r"^torch(?:\.(?!_dynamo\.|_inductor\.)[^.]+)*$")


def _snake_case(s):
    return _snake_case_sub.sub(r"_\1", s).lower()


def _is_magic(x):
    return x.startswith("__") and x.endswith("__")


def _is_from_torch(obj):
    module_name = getattr(obj, "__module__", None)
    if module_name is not None:
        return _torch_but_not_dynamo.fullmatch(module_name) is not None
    name = getattr(obj, "__name__", None)
    if name is not None and name != "torch":
        for guess in [torch, torch.nn.functional]:
            if getattr(guess, name, None) is obj:
                return True
    return False


class _Namespace:
    # Unique names: each object one name, each name used once, builtins not
    # shadowed (`sum` becomes `sum_1`).
    def __init__(self):
        self._obj_to_name = {}
        self._used_names = set()
        self._base_count = {}

    def create_name(self, candidate, obj):
        if obj is not None and obj in self._obj_to_name:
            return self._obj_to_name[obj]
        match = _name_regex.match(candidate)
        if match is None:
            candidate = _illegal_char_regex.sub("_", candidate)
            if not candidate:
                candidate = "_unnamed"
            if candidate[0].isdigit():
                candidate = "_" + candidate
            match = _name_regex.match(candidate)
        base, num = match.group(1, 2)
        if num is None or candidate in self._used_names:
            num = self._base_count.get(base, 0)
            if _illegal_names.get(candidate, obj) is not obj:
                num += 1
                candidate = base + "_" + str(num)
        else:
            num = int(num)
        while candidate in self._used_names:
            num += 1
            candidate = base + "_" + str(num)
        self._used_names.add(candidate)
        self._base_count[base] = num
        if obj is not None:
            self._obj_to_name[obj] = candidate
        return candidate

    def associate_name_with_obj(self, name, obj):
        self._obj_to_name.setdefault(obj, name)


class PythonCode:
    def __init__(self, src, globals):
        self.src = src
        self.globals = globals


_reflectable_magic_methods = {
    "add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "floordiv": "{} // {}", "truediv": "{} / {}",
    "div": "{} / {}", "mod": "{} % {}", "pow": "{} ** {}", "lshift": "{} << {}", "rshift": "{} >> {}",
    "and_": "{} & {}", "or_": "{} | {}", "xor": "{} ^ {}", "getitem": "{}[{}]", "matmul": "{} @ {}",
}
_magic_methods = dict({
    "eq": "{} == {}", "ne": "{} != {}", "lt": "{} < {}", "gt": "{} > {}", "le": "{} <= {}", "ge": "{} >= {}",
    "pos": "+{}", "neg": "-{}", "invert": "~{}",
}, **_reflectable_magic_methods)
# The operator functions printed as operators, by identity.
_OPERATOR_FORMS = {}
for _name, _form in _magic_methods.items():
    if hasattr(_operator, _name):
        _OPERATOR_FORMS[getattr(_operator, _name)] = _form


def _format_target(base, target):
    r = base
    for e in target.split("."):
        if not e.isidentifier():
            r = "getattr(" + r + ', "' + e + '")'
        else:
            r = r + "." + e
    return r


class _node_list:
    def __init__(self, graph, direction="_next"):
        self.graph = graph
        self.direction = direction

    def __len__(self):
        return self.graph._len

    def __iter__(self):
        root = self.graph._root
        cur = getattr(root, self.direction)
        while cur is not root:
            if not cur._erased:
                yield cur
            cur = getattr(cur, self.direction)

    def __reversed__(self):
        return _node_list(self.graph, "_prev" if self.direction == "_next" else "_next")


class _InsertPoint:
    def __init__(self, graph, new_insert):
        self.graph = graph
        self.orig_insert, graph._insert = graph._insert, new_insert

    def __enter__(self):
        pass

    def __exit__(self, type, value, tb):
        self.graph._insert = self.orig_insert


class Graph:
    def __init__(self, owning_module=None, tracer_cls=None, tracer_extras=None):
        self._root = Node(self, "", "root", "", (), {})
        self._insert = self._root.prepend
        self._len = 0
        self._graph_namespace = _Namespace()
        self._owning_module = owning_module
        self._tracer_cls = tracer_cls
        self._tracer_extras = tracer_extras

    @property
    def owning_module(self):
        return self._owning_module

    @owning_module.setter
    def owning_module(self, mod):
        self._owning_module = mod

    @property
    def nodes(self):
        return _node_list(self)

    def find_nodes(self, *, op, target=None, sort=True):
        return [n for n in self.nodes if n.op == op and (target is None or n.target == target)]

    def _target_to_str(self, target):
        if callable(target):
            op = target.__name__
        else:
            op = target
            if _is_magic(op):
                op = op[2:-2]
        return _snake_case(op)

    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        candidate = name if name is not None else self._target_to_str(target)
        name = self._graph_namespace.create_name(candidate, None)
        n = Node(self, name, op, target, args, kwargs, type_expr)
        self._graph_namespace.associate_name_with_obj(name, n)
        self._insert(n)
        self._len += 1
        return n

    def placeholder(self, name, type_expr=None, default_value=_inspect.Signature.empty):
        args = () if default_value is _inspect.Signature.empty else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None, name=None):
        return self.create_node("call_function", the_function, args, kwargs, name=name, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node(op="output", target="output", args=(result,), type_expr=type_expr)

    def node_copy(self, node, arg_transform=lambda x: x):
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        result_node = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        result_node.meta = dict(node.meta)
        return result_node

    def graph_copy(self, g, val_map, return_output_node=False):
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                rv = map_arg(node.args[0], lambda n: val_map[n])
                return rv if not return_output_node else (rv, node)
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def erase_node(self, to_erase):
        if len(to_erase.users) > 0:
            raise RuntimeError("Tried to erase Node " + str(to_erase) + " but it still had "
                               + str(len(to_erase.users)) + " users in the graph: " + str(to_erase.users) + "!")
        if to_erase.graph is not self:
            raise RuntimeError("Attempting to remove " + str(to_erase) + " from wrong graph!")
        if to_erase._erased:
            return
        to_erase._remove_from_list()
        to_erase._erased = True
        self._len -= 1
        to_erase._update_args_kwargs(map_arg(to_erase._args, lambda n: None),
                                     map_arg(to_erase._kwargs, lambda n: None))

    def inserting_before(self, n=None):
        if n is None:
            return self.inserting_after(self._root)
        return _InsertPoint(self, n.prepend)

    def inserting_after(self, n=None):
        if n is None:
            return self.inserting_before(self._root)
        return _InsertPoint(self, n.append)

    def eliminate_dead_code(self, is_impure_node=None):
        changed = False
        for node in reversed(self.nodes):
            impure = is_impure_node(node) if is_impure_node is not None else node.is_impure()
            if not impure and len(node.users) == 0:
                self.erase_node(node)
                changed = True
        return changed

    def lint(self):
        seen_names = set()
        seen_values = set()

        def check_arg(arg, n):
            if arg.graph is not self:
                raise RuntimeError("Argument '" + str(arg) + "' of Node '" + str(n)
                                   + "' does not belong to this Graph, but was used as an argument! If you are "
                                   "copying nodes from another graph, make sure to use ``arg_transform`` on "
                                   "node_copy() to remap values\n" + str(self))
            if arg not in seen_values:
                raise RuntimeError("Argument '" + str(arg) + "' of Node '" + str(n)
                                   + "' was used before it has been defined! Please check that Nodes in the "
                                   "graph are topologically ordered\n" + str(self))

        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError("Node '" + str(node) + "' does not belong to this Graph!")
            for arg in node._input_nodes:
                check_arg(arg, node)
            seen_values.add(node)
            if node.name in seen_names:
                raise RuntimeError("Node redefined name " + node.name + "!")
            seen_names.add(node.name)
        if self.owning_module:
            for node in self.nodes:
                if node.op in ("get_attr", "call_module"):
                    target_atoms = node.target.split(".")
                    m_itr = self.owning_module
                    for i, atom in enumerate(target_atoms):
                        new_m_itr = getattr(m_itr, atom, None)
                        seen_qualname = ".".join(target_atoms[:i])
                        if new_m_itr is None:
                            raise RuntimeError("Node " + str(node) + " target " + node.target + " references "
                                               "nonexistent attribute " + atom + " of " + seen_qualname)
                        m_itr = new_m_itr

    def __str__(self):
        placeholder_names = []
        node_strs = [node.format_node(placeholder_names) for node in self.nodes]
        s = "graph(" + ", ".join(placeholder_names) + "):"
        for node_str in node_strs:
            if node_str:
                s += "\n    " + node_str
        return s

    def print_tabular(self):
        rows = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(_tabulate(rows, ["opcode", "name", "target", "args", "kwargs"]))

    def python_code(self, root_module, *, verbose=False, include_stride=False, include_device=False,
                    colored=False):
        return _python_code(self, root_module)

    def _python_code(self, root_module, namespace, **kwargs):
        return _python_code(self, root_module)


def _tabulate(rows, headers):
    # The table `tabulate(rows, headers)` prints in its default format (every
    # cell as str, left-aligned; a column of numbers only, right-aligned; no
    # spaces at the ends of lines).
    cells = [[str(c) for c in row] for row in rows]
    numeric = [bool(rows) and all(isinstance(row[i], (int, float)) and not isinstance(row[i], bool) for row in rows)
               for i in range(len(headers))]
    widths = [max([len(headers[i])] + [len(r[i]) for r in cells]) for i in range(len(headers))]

    def line(values):
        out = []
        for i, v in enumerate(values):
            out.append(v.rjust(widths[i]) if numeric[i] else v.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [line(headers), "  ".join("-" * w for w in widths)]
    lines.extend(line(r) for r in cells)
    return "\n".join(lines)


def _python_code(graph, root_module):
    # The source of `forward` and the globals it runs with, as PyTorch's
    # CodeGen writes them: one statement per node, each value set to None
    # after its last use.
    namespace = _Namespace()
    free_vars = []
    body = []
    globals_ = {}

    def add_global(name_hint, obj):
        if _is_from_torch(obj) and obj is not torch.device:
            return _get_qualified_name(obj)
        global_name = namespace.create_name(name_hint, obj)
        if global_name in globals_:
            return global_name
        globals_[global_name] = obj
        return global_name

    for name, obj in _custom_builtins.items():
        add_global(name, obj)

    def type_repr(o):
        typename = o.__name__ if isinstance(o, type) else repr(o)
        return add_global(typename, o)

    def get_repr(arg):
        if isinstance(arg, Node):
            return repr(arg)
        if isinstance(arg, tuple) and hasattr(arg, "_fields"):
            qualified_name = _get_qualified_name(type(arg))
            global_name = add_global(qualified_name, type(arg))
            return global_name + repr(tuple(arg))
        if isinstance(arg, torch.Tensor):
            size = list(arg.size())
            dtype = str(arg.dtype).split(".")[-1]
            return "torch.Tensor(size=" + str(size) + ", dtype=" + dtype + ")"
        if isinstance(arg, tuple):
            if len(arg) == 1:
                return "(" + get_repr(arg[0]) + ",)"
            return "(" + ", ".join(get_repr(a) for a in arg) + ")"
        if isinstance(arg, list):
            return "[" + ", ".join(get_repr(a) for a in arg) + "]"
        if isinstance(arg, slice):
            return "slice(" + get_repr(arg.start) + ", " + get_repr(arg.stop) + ", " + get_repr(arg.step) + ")"
        return repr(arg)

    def format_args(args, kwargs):
        res = [get_repr(a) for a in args]
        res.extend([k + " = " + get_repr(v) for k, v in kwargs.items()])
        return ", ".join(res)

    nodes = list(graph.nodes)
    node_to_last_use = {}
    user_to_last_uses = {}
    for node in reversed(nodes):
        for input_node in node._input_nodes:
            if input_node not in node_to_last_use:
                node_to_last_use[input_node] = node
                user_to_last_uses.setdefault(node, []).append(input_node)

    def delete_unused_values(user):
        if user.op == "placeholder":
            return
        if user.op == "output":
            body.append("\n")
            return
        nodes_to_delete = user_to_last_uses.get(user, [])
        if len(user.users) == 0:
            nodes_to_delete = nodes_to_delete + [user]
        if nodes_to_delete:
            body.append(";  " + " = ".join([repr(n) for n in nodes_to_delete] + ["None"]) + "\n")
        else:
            body.append("\n")

    return_annotation = [""]

    def emit_node(node):
        annotation = "" if node.type is None else " : " + type_repr(node.type)
        if node.op == "placeholder":
            default = "" if not node.args else " = " + get_repr(node.args[0])
            free_vars.append(node.target + annotation + default)
            raw_name = node.target.replace("*", "")
            if raw_name != repr(node):
                body.append(repr(node) + " = " + raw_name + "\n")
            return
        if node.op == "call_method":
            body.append(repr(node) + annotation + " = " + _format_target(get_repr(node.args[0]), node.target)
                        + "(" + format_args(node.args[1:], node.kwargs) + ")")
            return
        if node.op == "call_function":
            if node.target in _OPERATOR_FORMS and isinstance(node.args, tuple):
                body.append(repr(node) + annotation + " = "
                            + _OPERATOR_FORMS[node.target].format(*(get_repr(a) for a in node.args)))
                return
            global_name = add_global(_get_qualified_name(node.target), node.target)
            if (global_name == "getattr" and isinstance(node.args, tuple) and isinstance(node.args[1], str)
                    and node.args[1].isidentifier() and len(node.args) == 2):
                body.append(repr(node) + annotation + " = " + _format_target(get_repr(node.args[0]), node.args[1]))
                return
            body.append(repr(node) + annotation + " = " + global_name + "(" + format_args(node.args, node.kwargs) + ")")
            return
        if node.op == "call_module":
            body.append(repr(node) + annotation + " = " + _format_target(root_module, node.target)
                        + "(" + format_args(node.args, node.kwargs) + ")")
            return
        if node.op == "get_attr":
            body.append(repr(node) + annotation + " = " + _format_target(root_module, node.target))
            return
        if node.op == "output":
            if node.type is not None:
                return_annotation[0] = " -> " + type_repr(node.type)
            body.append("return " + get_repr(node.args[0]))
            return
        raise NotImplementedError("node: " + node.op + " " + str(node.target))

    for node in nodes:
        emit_node(node)
        delete_unused_values(node)
    if not body:
        body.append("pass\n")
    if not free_vars or free_vars[0] != "self":
        free_vars.insert(0, "self")
    prologue = "def forward(" + ", ".join(free_vars) + ")" + return_annotation[0] + ":"
    code = "".join(body).lstrip("\n")
    code = "\n".join("    " + line for line in code.split("\n"))
    src = "\n\n\n" + prologue + "\n" + code
    return PythonCode(src, globals_)
