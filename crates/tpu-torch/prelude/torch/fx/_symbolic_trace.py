# Tracer and symbolic_trace: run a module's forward (or a function) on
# Proxies and record what it does.

_current_tracer = [None]
# Global functions that `torch.fx.wrap` named, as (globals, name).
_wrapped_fns_to_patch = []


def wrap(fn_or_name):
    # Records calls to a module-level function as call_function nodes
    # instead of tracing through it.
    import sys as _sys

    if callable(fn_or_name):
        fn_name = fn_or_name.__name__
    elif isinstance(fn_or_name, str):
        fn_name = fn_or_name
    else:
        raise AssertionError("Unsupported type for global function! Must be either a callable or string name")
    frame = _sys._getframe(1)
    if frame.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped_fns_to_patch.append((frame.f_globals, fn_name))
    return fn_or_name


def _find_proxy(args, kwargs):
    found = []

    def look(x):
        if isinstance(x, Proxy) and not found:
            found.append(x)
        return x

    map_aggregate(args, look)
    if not found:
        map_aggregate(kwargs, look)
    return found[0] if found else None


def _recorded_arguments(fn, args, kwargs):
    # A torch.nn.functional function written in Python in PyTorch reaches
    # __torch_function__ with the parameters without a default positionally
    # and the others by keyword, defaults included.
    try:
        sig = _inspect.signature(fn)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    pos = []
    kw = {}
    for name, param in sig.parameters.items():
        value = bound.arguments.get(name)
        if param.kind == param.VAR_POSITIONAL:
            pos.extend(value or ())
        elif param.kind == param.VAR_KEYWORD:
            kw.update(value or {})
        elif param.default is param.empty and not kw:
            pos.append(value)
        else:
            kw[name] = value
    return tuple(pos), kw


def _traced_function(orig, functional):
    def wrapper(*args, **kwargs):
        proxy = _find_proxy(args, kwargs)
        if proxy is None:
            return orig(*args, **kwargs)
        if functional and _get_qualified_name(orig).startswith("torch.nn.functional."):
            args, kwargs = _recorded_arguments(orig, args, kwargs)
        return proxy.tracer.create_proxy("call_function", orig, args, kwargs)

    wrapper.__name__ = getattr(orig, "__name__", "wrapper")
    return wrapper


def _function_types():
    return (type(_function_types), type(len))


class _Patcher:
    # Attributes replaced while a trace runs, put back after, in reverse.
    def __init__(self):
        self._undo = []

    def set(self, owner, name, value, is_dict=False):
        if is_dict:
            had = name in owner
            old = owner.get(name)
            owner[name] = value
            self._undo.append(lambda: owner.__setitem__(name, old) if had else owner.pop(name, None))
        elif isinstance(owner, type) and name not in owner.__dict__:
            setattr(owner, name, value)
            self._undo.append(lambda: delattr(owner, name))
        else:
            old = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
            setattr(owner, name, value)
            self._undo.append(lambda: setattr(owner, name, old))

    def undo(self):
        while self._undo:
            self._undo.pop()()


class Tracer(TracerBase):
    def __init__(self, autowrap_modules=(_math,), autowrap_functions=(), param_shapes_constant=False):
        self._autowrap_function_ids = {id(value) for m in autowrap_modules for value in vars(m).values()
                                       if callable(value) and not isinstance(value, type)}
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self.param_shapes_constant = param_shapes_constant
        self.scope = None
        self.submodule_paths = None

    def is_leaf_module(self, m, module_qualified_name):
        module = type(m).__module__
        return ((module.startswith("torch.nn") or module.startswith("torch.ao.nn"))
                and not isinstance(m, torch.nn.Sequential))

    def path_of_module(self, mod):
        if self.submodule_paths is None:
            self.submodule_paths = {}
            for n, p in self.root.named_modules():
                self.submodule_paths.setdefault(id(p), n)
        path = self.submodule_paths.get(id(mod))
        if path is None:
            raise NameError("module is not installed as a submodule")
        return path

    def call_module(self, m, forward, args, kwargs):
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        if isinstance(attr_val, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        parameter_proxy_cache[n] = self.create_proxy("get_attr", n, (), {})
                    return parameter_proxy_cache[n]
        return attr_val

    def create_arg(self, a):
        if isinstance(a, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", n, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, torch.Tensor):
            qualname = self.tensor_attrs.get(id(a))
            if qualname is None:
                i = 0
                while True:
                    qualname = "_tensor_constant" + str(i)
                    if not hasattr(self.root, qualname):
                        break
                    i += 1
                self.tensor_attrs[id(a)] = qualname
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        if isinstance(a, torch.nn.Module):
            return self.create_node("get_attr", self.path_of_module(a), (), {})
        return super().create_arg(a)

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        if concrete_args is not None:
            raise NotImplementedError("symbolic_trace's concrete_args is not supported yet")
        fn_for_analysis = _inspect.unwrap(root_fn)
        co = fn_for_analysis.__code__
        total_args = co.co_argcount + co.co_kwonlyargcount
        names_iter = iter(co.co_varnames)
        args = []
        skip_arg_idx = 0
        if is_module:
            if total_args == 0:
                raise RuntimeError("``self`` argument cannot be part of *args expansion!")
            skip_arg_idx = 1
            next(names_iter)
            args.append(self.root)
        sig = _inspect.signature(fn_for_analysis)
        annotations = getattr(fn_for_analysis, "__annotations__", {})

        def proxy_placeholder(name):
            param = sig.parameters[name.replace("*", "")]
            default = () if param.default is _inspect.Parameter.empty else (param.default,)
            return self.create_proxy("placeholder", name, default, {},
                                     type_expr=annotations.get(name.replace("*", "")))

        arg_names = [next(names_iter) for _ in range(skip_arg_idx, total_args)]
        args.extend(proxy_placeholder(name) for name in arg_names)
        if co.co_kwonlyargcount > 0 or co.co_flags & 0x0C:
            if co.co_flags & 0x04:
                args.append(proxy_placeholder("*" + next(names_iter)))
            if co.co_flags & 0x08:
                args.append(proxy_placeholder("**" + next(names_iter)))
        return root_fn, args

    def trace(self, root, concrete_args=None):
        if isinstance(root, torch.nn.Module):
            self.root = root
            fn = type(root).forward
            is_module = True
        else:
            self.root = torch.nn.Module()
            fn = root
            is_module = False
        self.submodule_paths = None
        self.graph = Graph(tracer_cls=type(self))
        self.tensor_attrs = {}
        for mod_name, mod in self.root.named_modules():
            for k, v in vars(mod).items():
                if isinstance(v, torch.Tensor) and not isinstance(v, torch.nn.Parameter):
                    self.tensor_attrs.setdefault(id(v), (mod_name + "." if mod_name else "") + k)
        fn, args = self.create_args_for_root(fn, is_module, concrete_args)
        if _current_tracer[0] is not None:
            raise RuntimeError("torch.fx.symbolic_trace cannot run inside another trace")
        parameter_proxy_cache = {}
        tracer = self
        patcher = _Patcher()
        module_cls = torch.nn.Module
        orig_call = module_cls.__dict__["__call__"]
        object_getattribute = object.__getattribute__

        def module_call_wrapper(mod, *args, **kwargs):
            def forward(*args, **kwargs):
                return orig_call(mod, *args, **kwargs)

            return tracer.call_module(mod, forward, args, kwargs)

        def module_getattribute_wrapper(mod, attr):
            value = object_getattribute(mod, attr)
            if isinstance(value, torch.nn.Parameter):
                return tracer.getattr(attr, value, parameter_proxy_cache)
            return value

        _current_tracer[0] = self
        try:
            patcher.set(module_cls, "__call__", module_call_wrapper)
            patcher.set(module_cls, "__getattribute__", module_getattribute_wrapper)
            function_types = _function_types()
            for namespace, functional in ((torch, False), (torch.nn.functional, True)):
                for name, value in list(vars(namespace).items()):
                    if not name.startswith("__") and isinstance(value, function_types):
                        patcher.set(namespace, name, _traced_function(value, functional))
            fn_globals = getattr(fn, "__globals__", {})
            for name, value in list(fn_globals.items()):
                if not name.startswith("__") and id(value) in self._autowrap_function_ids:
                    patcher.set(fn_globals, name, _traced_function(value, False), is_dict=True)
            for globals_, name in _wrapped_fns_to_patch:
                if name in globals_ and callable(globals_[name]):
                    patcher.set(globals_, name, _traced_function(globals_[name], False), is_dict=True)
            result = fn(*args)
            self.create_node("output", "output", (self.create_arg(result),), {},
                             type_expr=getattr(fn, "__annotations__", {}).get("return", None))
        finally:
            patcher.undo()
            _current_tracer[0] = None
            self.submodule_paths = None
        return self.graph


def symbolic_trace(root, concrete_args=None):
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, torch.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
