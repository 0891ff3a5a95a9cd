# torch._dynamo: what torch.compile does with a function or a module. Each
# call is checked against the guards of the compiles made so far (the shapes,
# dtypes, devices and requires_grad of its tensors, the values of its Python
# numbers, grad mode, a module's training flag and parameters); a call that
# matches none compiles again, with the first failed guard of the latest
# compile as its reason. A call runs the function with its ops captured into
# a graph (torch._C.capture_begin/_end): the runtime defers them, whatever the
# eager mode, and plans the graph whole when the call returns. Reading a
# tensor's value inside is a graph break, as in Dynamo (an error with
# fullgraph=True). Sizes that change between calls become dynamic after the
# first change (Dynamo's automatic dynamic shapes), or at once with
# dynamic=True, so later sizes reuse the compile.
#
# Unlike Dynamo, the Python function runs on every call (the graph is not
# replayed without it); its ops are what is captured and planned.
import torch


class _Config:
    def __setattr__(self, name, value):
        # cache_size_limit and recompile_limit are one setting under two names.
        if name in ("cache_size_limit", "recompile_limit"):
            object.__setattr__(self, "cache_size_limit", value)
            object.__setattr__(self, "recompile_limit", value)
        else:
            object.__setattr__(self, name, value)

    def __init__(self):
        self.cache_size_limit = 8
        self.recompile_limit = 8
        self.accumulated_cache_size_limit = 256
        self.automatic_dynamic_shapes = True
        self.assume_static_by_default = True
        self.suppress_errors = False
        self.verbose = False
        self.capture_scalar_outputs = False


def mark_dynamic(t, index, *, min=None, max=None, specialize_on=None):
    # The dimensions a compile takes as dynamic from its first call on, as
    # Dynamo does (a size of 1 is still specialised, as here elsewhere).
    if isinstance(index, (list, tuple)):
        for i in index:
            mark_dynamic(t, i, min=min, max=max)
        return
    if not hasattr(t, "_dynamo_dynamic_indices"):
        t._dynamo_dynamic_indices = set()
    t._dynamo_dynamic_indices.add(index)


def maybe_mark_dynamic(t, index):
    mark_dynamic(t, index)


def mark_static(t, index=None):
    marked = getattr(t, "_dynamo_dynamic_indices", None)
    if marked is not None:
        if index is None:
            marked.clear()
        else:
            marked.discard(index)


class _Patch:
    # `config.patch(...)`: the settings changed while a `with` block or a
    # decorated function runs, and put back after.
    def __init__(self, changes):
        self._changes = changes
        self._saved = []

    def __enter__(self):
        self._saved.append({k: getattr(config, k) for k in self._changes})
        for k, v in self._changes.items():
            setattr(config, k, v)

    def __exit__(self, *exc):
        for k, v in self._saved.pop().items():
            setattr(config, k, v)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def patched(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return patched


def _patch(arg1=None, arg2=None, **kwargs):
    if isinstance(arg1, str):
        changes = {arg1: arg2}
    elif isinstance(arg1, dict):
        changes = dict(arg1)
    else:
        changes = {}
    changes.update(kwargs)
    for k in changes:
        if not hasattr(config, k):
            raise AttributeError("torch._dynamo.config." + k + " does not exist")
    return _Patch(changes)


_Config.patch = staticmethod(_patch)
config = _Config()


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    pass


class InvalidBackend(TorchDynamoException):
    pass


class _Exc:
    TorchDynamoException = TorchDynamoException
    Unsupported = Unsupported
    InvalidBackend = InvalidBackend


# torch._dynamo.utils.counters: how many graphs were compiled, frames run,
# and graph breaks by reason; a defaultdict of Counters, as PyTorch's.
import collections as _collections

counters = _collections.defaultdict(_collections.Counter)
for _group in ("stats", "frames", "graph_break"):
    counters[_group]


def _count(group, key, n=1):
    counters[group][key] += n


exc = _Exc()

_GRAPH_BREAK = "graph break: "
_BACKENDS = ("cudagraphs", "inductor", "openxla", "tvm", "eager", "aot_eager", "aot_eager_decomp_partition",
             "aot_eager_default_partitioner", "aot_ts", "aot_ts_nvfuser", "tpu")
_MODES = (None, "default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")


def list_backends(exclude_tags=("debug", "experimental")):
    return sorted(["cudagraphs", "inductor", "openxla", "tvm"])
_live = []


def _limit():
    return config.recompile_limit


def _dtype_name(dtype):
    return {"torch.float32": "Float", "torch.float64": "Double", "torch.bfloat16": "BFloat16", "torch.float16": "Half",
            "torch.int32": "Int", "torch.uint8": "Byte", "torch.int64": "Long", "torch.bool": "Bool"}.get(str(dtype), str(dtype))


class _Guard:
    # One checked property of one input: `key` is compared, `text` is shown.
    def __init__(self, name, kind, value, text):
        self.name = name
        self.kind = kind
        self.value = value
        self.text = text


def _tensor_guards(name, t, dynamic_dims, all_dynamic):
    sizes = []
    dyn = []
    marked = getattr(t, "_dynamo_dynamic_indices", ())
    for d, s in enumerate(t.shape):
        if (all_dynamic or (name, d) in dynamic_dims or d in marked) and s > 1:
            sizes.append(None)
            dyn.append(name + ".size(" + str(d) + ")")
        else:
            sizes.append(s)
    shown = "[" + ", ".join("s" + str(i) if s is None else str(s) for i, s in enumerate(sizes)) + "]"
    text = ("check_tensor(" + name + ", " + str(t.dtype) + ", device=" + str(t.device)
            + ", requires_grad=" + str(t.requires_grad) + ", size=" + shown + ")")
    return [_Guard(name, "tensor", (tuple(sizes), str(t.dtype), str(t.device), t.requires_grad), text)], dyn


def _guards_of(name, value, dynamic_dims, all_dynamic, out, dyn):
    if isinstance(value, torch.Tensor):
        g, d = _tensor_guards(name, value, dynamic_dims, all_dynamic)
        out.extend(g)
        dyn.extend(d)
    elif isinstance(value, bool) or value is None or isinstance(value, str):
        out.append(_Guard(name, "value", value, name + " == " + repr(value)))
    elif isinstance(value, int):
        if all_dynamic or (name, None) in dynamic_dims:
            dyn.append(name)
            out.append(_Guard(name, "int", None, name + " is an int (dynamic)"))
        else:
            out.append(_Guard(name, "value", value, name + " == " + repr(value)))
    elif isinstance(value, float):
        if all_dynamic or (name, None) in dynamic_dims:
            dyn.append(name)
            out.append(_Guard(name, "float", None, name + " is a float (dynamic)"))
        else:
            out.append(_Guard(name, "value", value, name + " == " + repr(value)))
    elif isinstance(value, (list, tuple)):
        out.append(_Guard(name, "len", len(value), "len(" + name + ") == " + str(len(value))))
        for i, item in enumerate(value):
            _guards_of(name + "[" + str(i) + "]", item, dynamic_dims, all_dynamic, out, dyn)
    elif isinstance(value, dict):
        for k in value:
            _guards_of(name + "[" + repr(k) + "]", value[k], dynamic_dims, all_dynamic, out, dyn)
    elif isinstance(value, torch.nn.Module):
        out.append(_Guard(name, "training", value.training, name + ".training == " + str(value.training)))
        for pname, p in value.named_parameters():
            _guards_of(name + "." + pname, p, dynamic_dims, False, out, dyn)
        for bname, b in value.named_buffers():
            _guards_of(name + "." + bname, b, dynamic_dims, False, out, dyn)


def _sizes_in(name, value, out):
    # Every size a call's arguments carry (tensor sizes and ints), named as
    # guards name them: the runtime fits a dynamic compile's graph sizes to
    # the dynamic ones, to run the graph padded to a bound.
    if isinstance(value, torch.Tensor):
        for d, s in enumerate(value.shape):
            out.append((name + ".size(" + str(d) + ")", s))
    elif isinstance(value, bool):
        pass
    elif isinstance(value, int):
        out.append((name, value))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _sizes_in(name + "[" + str(i) + "]", item, out)
    elif isinstance(value, dict):
        for k in value:
            _sizes_in(name + "[" + repr(k) + "]", value[k], out)


def _tensors_in(value, out):
    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _tensors_in(v, out)
    elif isinstance(value, dict):
        for k in value:
            _tensors_in(value[k], out)
    return out


def _reason(old, new):
    # Dynamo's words for the first guard of `old` that the call failed.
    by_name = {}
    for g in new:
        by_name[g.name + "/" + g.kind] = g
    for g in old:
        n = by_name.get(g.name + "/" + g.kind)
        if n is None:
            if g.kind == "tensor":
                return g.name + " is not a Tensor"
            continue
        if n.value == g.value:
            continue
        if g.kind == "grad_mode":
            return "GLOBAL_STATE changed: grad_mode "
        if g.kind == "tensor":
            (sizes, dtype, device, rg) = g.value
            (nsizes, ndtype, ndevice, nrg) = n.value
            if dtype != ndtype:
                return ("tensor '" + g.name + "' dtype mismatch. expected " + _dtype_name(dtype)
                        + ", actual " + _dtype_name(ndtype))
            if device != ndevice:
                return "tensor '" + g.name + "' device mismatch. expected " + device + ", actual " + ndevice
            if rg != nrg:
                return ("tensor '" + g.name + "' requires_grad mismatch. expected requires_grad="
                        + str(int(rg)))
            if len(sizes) != len(nsizes):
                return ("tensor '" + g.name + "' rank mismatch. expected " + str(len(sizes))
                        + ", actual " + str(len(nsizes)))
            for i in range(len(sizes)):
                if sizes[i] != nsizes[i]:
                    expected = "a dynamic size" if sizes[i] is None else str(sizes[i])
                    actual = "a dynamic size" if nsizes[i] is None else str(nsizes[i])
                    return ("tensor '" + g.name + "' size mismatch at index " + str(i)
                            + ". expected " + expected + ", actual " + actual)
        return g.text
    return "the guards changed"


def _number(v):
    return (isinstance(v, int) or isinstance(v, float)) and not isinstance(v, bool)


def _size_changes(old, new):
    # The (name, dim) pairs whose size differs between two compiles' guards
    # that otherwise agree on a tensor: automatic dynamic's candidates.
    changed = []
    by_name = {}
    for g in new:
        by_name[g.name + "/" + g.kind] = g
    for g in old:
        n = by_name.get(g.name + "/" + g.kind)
        if n is None:
            continue
        if g.kind == "tensor" and n.value != g.value:
            (sizes, dtype, device, rg) = g.value
            (nsizes, ndtype, ndevice, nrg) = n.value
            if (dtype, device, rg) == (ndtype, ndevice, nrg) and len(sizes) == len(nsizes):
                for i in range(len(sizes)):
                    if sizes[i] is not None and nsizes[i] is not None and sizes[i] != nsizes[i]:
                        changed.append((g.name, i))
        elif g.kind == "value" and _number(g.value) and _number(n.value) \
                and type(g.value) == type(n.value) and n.value != g.value:
            changed.append((g.name, None))
    return changed


class _CompiledFunction:
    def __init__(self, fn, name, fullgraph, dynamic, module=None, backend=None):
        self._fn = fn
        self._backend = backend if callable(backend) else None
        self._recompile_limit = None
        self._name = name
        self._fullgraph = fullgraph
        self._dynamic = dynamic
        self._module = module
        self._compiles = []
        self._dynamic_dims = []
        self._id = torch._C.compile_register(name, fullgraph, dynamic)
        self._params = torch._C.param_names(fn.forward if module is not None else fn)
        self._torchdynamo_orig_callable = fn
        self.__name__ = name
        _live.append(self)

    def _reset(self):
        self._compiles = []
        self._dynamic_dims = []
        self._id = torch._C.compile_register(self._name, self._fullgraph, self._dynamic)

    def _guards(self, args, kwargs):
        guards = []
        dyn = []
        all_dynamic = self._dynamic is True
        if self._module is not None:
            _guards_of("self", self._module, self._dynamic_dims, False, guards, dyn)
        for i, a in enumerate(args):
            name = self._params[i] if i < len(self._params) else "args[" + str(i) + "]"
            _guards_of(name, a, self._dynamic_dims, all_dynamic, guards, dyn)
        for k in kwargs:
            _guards_of(k, kwargs[k], self._dynamic_dims, all_dynamic, guards, dyn)
        mode = torch.is_grad_enabled()
        guards.append(_Guard("GLOBAL_STATE", "grad_mode", mode, "___check_global_state() (grad_mode=" + str(mode) + ")"))
        return guards, dyn

    def _find(self, guards):
        key = [(g.name, g.kind, g.value) for g in guards]
        for i, c in enumerate(self._compiles):
            if c[0] == key:
                return i
        return None

    def __call__(self, *args, **kwargs):
        if torch._C.is_compiling():
            # A compiled function called from a compiled function is part
            # of the caller's graph.
            return self._fn(*args, **kwargs)
        guards, dyn = self._guards(args, kwargs)
        index = self._find(guards)
        reason = None
        if index is None and self._compiles:
            latest = self._compiles[-1][1]
            reason = _reason(latest, guards)
            if self._dynamic is None and config.automatic_dynamic_shapes:
                changes = [c for c in _size_changes(latest, guards) if c not in self._dynamic_dims]
                if changes:
                    self._dynamic_dims.extend(changes)
                    guards, dyn = self._guards(args, kwargs)
                    index = self._find(guards)
        if index is None:
            limit = _limit() if self._recompile_limit is None else self._recompile_limit
            if len(self._compiles) >= limit:
                torch._C.compile_eager_call(
                    self._id,
                    "torch._dynamo hit config.recompile_limit (" + str(limit) + "): "
                    + "later calls that need a new compile run eagerly; last reason: " + str(reason))
                return self._fn(*args, **kwargs)
            index = len(self._compiles)
            self._compiles.append([[(g.name, g.kind, g.value) for g in guards], guards])
        sizes = []
        for i, a in enumerate(args):
            _sizes_in(self._params[i] if i < len(self._params) else "args[" + str(i) + "]", a, sizes)
        for k in kwargs:
            _sizes_in(k, kwargs[k], sizes)
        torch._C.capture_begin(self._id, index, [g.text for g in guards], reason, dyn,
                               [n for (n, _) in sizes], [v for (_, v) in sizes])
        try:
            out = self._fn(*args, **kwargs)
        except RuntimeError as e:
            torch._C.capture_abort()
            text = str(e)
            if text.startswith(_GRAPH_BREAK):
                raise Unsupported(text[len(_GRAPH_BREAK):]) from None
            raise
        except BaseException:
            torch._C.capture_abort()
            raise
        torch._C.capture_end(_tensors_in(out, []))
        _count("frames", "total")
        _count("frames", "ok")
        entry = self._compiles[index]
        graphs = torch._C.capture_graphs()
        if len(entry) == 2:
            # The compile's first call: its graphs go to the backend.
            (count, breaks, ops) = torch._C.compile_info(self._id)
            _count("stats", "calls_captured", ops)
            _count("stats", "unique_graphs", count)
            for (r, _) in breaks:
                _count("graph_break", r.split("\n")[0])
            runners = []
            if self._backend is not None:
                for g, inputs in enumerate(graphs):
                    runners.append(self._backend(GraphModule(self._id, index, g), list(inputs)))
            entry.append(runners)
        for g, run in enumerate(entry[2]):
            # A custom backend's compiled callable runs on each call with
            # the graph's inputs, for its effects; the values the function
            # returns are the captured run's.
            if g < len(graphs):
                run(*graphs[g])
        return out


class _Graph:
    def __init__(self, gm):
        self.owning_module = gm

    def __repr__(self):
        return "<torch.fx.graph.Graph>"


class GraphModule:
    # What a custom backend receives: forward runs the captured graph again,
    # op by op, on the tensors given (the graph's inputs, in order).
    def __init__(self, fn_id, compile_index, graph_index):
        self._key = (fn_id, compile_index, graph_index)
        self.graph = _Graph(self)
        self.training = True

    def forward(self, *args):
        (f, c, g) = self._key
        return tuple(torch._C.graph_replay(f, c, g, list(args)))

    def __call__(self, *args):
        return self.forward(*args)

    def __repr__(self):
        return "GraphModule()"


class OptimizedModule(torch.nn.Module):
    def __init__(self, mod, fullgraph, dynamic, backend=None):
        super().__init__()
        self._orig_mod = mod
        object.__setattr__(self, "_compiled_call",
                           _CompiledFunction(mod, type(mod).__name__, fullgraph, dynamic, mod, backend))

    def __call__(self, *args, **kwargs):
        return self._compiled_call(*args, **kwargs)

    def forward(self, *args, **kwargs):
        return self._compiled_call(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(vars(self)["_orig_mod"], name)


def _compile(model, fullgraph=False, dynamic=None, backend="inductor", mode=None, options=None,
             disable=False, name=None, recompile_limit=None):
    if isinstance(backend, str) and backend not in _BACKENDS:
        raise InvalidBackend("Invalid backend: " + repr(backend)
                             + ". See `torch._dynamo.list_backends()` for available backends.")
    if mode not in _MODES:
        raise RuntimeError("Unrecognized mode=" + str(mode) + ", should be one of: default, lite, "
                           + "reduce-overhead, max-autotune-no-cudagraphs, max-autotune")
    if disable:
        return model
    if isinstance(model, torch.nn.Module):
        compiled = OptimizedModule(model, fullgraph, dynamic, backend)
        compiled._compiled_call._recompile_limit = recompile_limit
        return compiled
    compiled = _CompiledFunction(model, name or getattr(model, "__name__", "fn"), fullgraph, dynamic, None,
                                 backend)
    compiled._recompile_limit = recompile_limit
    return compiled


def reset():
    for c in _live:
        c._reset()


def disable(fn=None, recursive=True, reason=None):
    # The function runs eagerly, outside any graph; a compiled caller's
    # graph breaks around the call.
    if fn is None:
        return lambda f: disable(f, recursive, reason)

    def disabled(*args, **kwargs):
        if not torch._C.is_compiling():
            return fn(*args, **kwargs)
        torch._C.capture_break(
            "Skip calling `torch.compiler.disable()`d function\n  Explanation: Skip calling function `"
            + repr(fn) + "` since it was wrapped with `torch.compiler.disable` (reason: "
            + str(reason) + ")\n  Hint: Remove the `torch.compiler.disable` call", True)
        torch._C.capture_pause()
        try:
            return fn(*args, **kwargs)
        finally:
            torch._C.capture_resume()

    return disabled


class _BreakReason:
    def __init__(self, reason, line):
        self.reason = reason
        self.line = line

    def __repr__(self):
        return "GraphBreakReason(reason=" + repr(self.reason) + ")"


class ExplainOutput:
    def __init__(self, graphs, breaks, ops):
        self.graph_count = graphs
        self.graph_break_count = len(breaks)
        self.break_reasons = [_BreakReason(r, l) for (r, l) in breaks]
        self.op_count = ops
        self.graphs = []
        self.out_guards = []
        self.compile_times = ""

    def __str__(self):
        lines = ["Graph Count: " + str(self.graph_count),
                 "Graph Break Count: " + str(self.graph_break_count),
                 "Op Count: " + str(self.op_count),
                 "Break Reasons:"]
        for i, b in enumerate(self.break_reasons):
            lines.append("  Break Reason " + str(i + 1) + ":")
            lines.append("    Reason: " + b.reason)
        return "\n".join(lines) + "\n"


def explain(f, *extra_args, **extra_kwargs):
    def inner(*args, **kwargs):
        compiled = _CompiledFunction(f, getattr(f, "__name__", "fn"), False, None)
        compiled(*args, **kwargs)
        (graphs, breaks, ops) = torch._C.compile_info(compiled._id)
        return ExplainOutput(graphs, breaks, ops)

    if extra_args or extra_kwargs:
        return inner(*extra_args, **extra_kwargs)
    return inner
