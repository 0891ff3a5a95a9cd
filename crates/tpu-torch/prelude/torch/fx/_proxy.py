# Proxy: the value a traced program computes with; every operation on it adds
# a node to the tracer's graph.


class TraceError(ValueError):
    pass


class TracerBase:
    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None):
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        if proxy_factory_fn is None:
            return self.proxy(node)
        return proxy_factory_fn(node)

    def create_arg(self, a):
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, tuple):
            if hasattr(a, "_fields"):
                return type(a)(*[self.create_arg(elem) for elem in a])
            return tuple(self.create_arg(elem) for elem in a)
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            out = {}
            for k, v in a.items():
                if isinstance(k, Proxy):
                    raise TraceError("Keys of dicts traced by torch.fx cannot be Proxies")
                out[k] = self.create_arg(v)
            return out
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, Node):
            return a
        if a is None or a is ... or isinstance(a, (str, int, float, bool, complex, torch.dtype, torch.device)):
            return a
        raise NotImplementedError("argument of type: " + str(type(a)))

    def to_bool(self, obj):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop "
                         "or as a *args or **kwargs function argument. See the torch.fx docs on pytorch.org for "
                         "a more detailed explanation of what types of control flow can be traced, and check out "
                         "the Proxy docstring for help troubleshooting Proxy iteration errors")

    def keys(self, obj):
        return Attribute(obj, "keys")()


class GraphAppendingTracer(TracerBase):
    def __init__(self, graph):
        self.graph = graph


class Proxy:
    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return "Proxy(" + self.node.name + ")"

    def __getattr__(self, k):
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self,) + args, kwargs)

    def __iter__(self):
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def __index__(self):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to be "
                           "recorded, please call torch.fx.wrap('len') at module scope")

    def keys(self):
        return self.tracer.keys(self)


class Attribute(Proxy):
    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        # An attribute read becomes a node only where it is used as a value,
        # not where it is called as a method.
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root,) + args, kwargs)


def _define_magic(method):
    target = getattr(_operator, method)

    def impl(*args, **kwargs):
        return args[0].tracer.create_proxy("call_function", target, args, kwargs)

    impl.__name__ = "__" + method.strip("_") + "__"
    setattr(Proxy, impl.__name__, impl)


def _define_reflected(method):
    target = getattr(_operator, method)

    def impl(self, rhs):
        return self.tracer.create_proxy("call_function", target, (rhs, self), {})

    impl.__name__ = "__r" + method.strip("_") + "__"
    setattr(Proxy, impl.__name__, impl)


for _method in _magic_methods:
    if hasattr(_operator, _method):
        _define_magic(_method)
for _method in _reflectable_magic_methods:
    if hasattr(_operator, _method):
        _define_reflected(_method)
