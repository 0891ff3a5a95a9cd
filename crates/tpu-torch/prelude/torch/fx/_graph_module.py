# GraphModule: a Module whose forward is the code generated from its graph.


def _copy_attr(from_module, to_module, target):
    # Copies `from_module.<target>` (a dotted path) into `to_module`, making
    # the submodules on the way as plain Modules where they are missing.
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, torch.Tensor) and not isinstance(orig, torch.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(from_obj, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = torch.nn.Module()
            setattr(to_module, item, t)
        to_module = t
    if isinstance(from_obj, torch.Tensor) and not isinstance(from_obj, torch.nn.Parameter):
        to_module.register_buffer(field, from_obj)
    else:
        setattr(to_module, field, from_obj)


class GraphModule(torch.nn.Module):
    def __new__(cls, *args, **kwargs):
        # Each instance has a class of its own, so that its forward (set on
        # the class by recompile) is its own.
        for t in cls.__mro__:
            c = t.__qualname__.split(".")[-1]
            if c != "GraphModuleImpl":
                cls = t
                break

        class GraphModuleImpl(cls):
            pass

        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        self.__class__.__qualname__ = class_name
        if isinstance(root, torch.nn.Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError("Node " + str(node) + " referenced target " + node.target
                                           + " but that target was not provided in ``root``!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph

    @property
    def graph(self):
        return vars(self)["_graph"]

    @graph.setter
    def graph(self, g):
        object.__setattr__(self, "_graph", g)
        g.owning_module = self
        self.recompile()

    @property
    def code(self):
        return vars(self)["_code"]

    def recompile(self):
        python_code = _python_code(self.graph, "self")
        object.__setattr__(self, "_code", python_code.src)
        globals_ = dict(python_code.globals)
        globals_["torch"] = torch
        exec(compile(python_code.src, "<eval_with_key>", "exec"), globals_)
        type(self).forward = globals_["forward"]
        return python_code

    def print_readable(self, print_output=True, include_stride=False, include_device=False, colored=False):
        raise NotImplementedError("GraphModule.print_readable is not supported yet; print(gm.code) shows the "
                                  "generated code")

    def __str__(self):
        return "\n".join([torch.nn.Module.__repr__(self), self.code,
                          "# To see more debug info, please use `graph_module.print_readable()`"])

    def __repr__(self):
        return torch.nn.Module.__repr__(self)
