# `jax.experimental.pallas` (`pl`): `pallas_call` with a grid, `BlockSpec`s
# and their index maps; inside kernels, refs (`x_ref[...]`, static windows,
# stores), `program_id`, `num_programs` and `when`; and TorchTPU's
# `torch_tpu.pallas.custom_jax_kernel`, which calls a JAX function on torch
# tensors. A `pallas_call` traces its kernel once per call with refs standing
# for the blocks, and the runtime runs the traced kernel
# (`torch._C.pallas_call`): the reference interprets it, wgpu generates one
# WGSL shader from it.
import torch
import jax as _jax


class BlockSpec:
    def __init__(self, block_shape=None, index_map=None, pipeline_mode=None, memory_space=None):
        self.block_shape = None if block_shape is None else tuple(block_shape)
        self.index_map = index_map
        if pipeline_mode is not None:
            raise NotImplementedError("BlockSpec(pipeline_mode=...) (blocks are double-buffered here)")

    def __repr__(self):
        return "BlockSpec(block_shape=" + repr(self.block_shape) + ")"


class Squeezed:
    """A block dimension of size 1 left out of the kernel's ref (like None)."""

    def __repr__(self):
        return "Squeezed()"


squeezed = Squeezed()


def cdiv(a, b):
    return (a + b - 1) // b


class _DS:
    def __init__(self, start, size):
        self.start = start
        self.size = size


def ds(start, size):
    """`pl.ds(start, size)`: a window of `size` elements from `start` (static here)."""
    return _DS(start, size)


dslice = ds


class _Index:
    """A block index in an index map, computed from the grid's program ids."""

    def __init__(self, expr):
        self.expr = expr

    def _op(self, op, a, b):
        return _Index({"kind": "binary", "op": op, "a": _index_expr(a), "b": _index_expr(b)})

    def __add__(self, o):
        return self._op("add", self, o)

    def __radd__(self, o):
        return self._op("add", o, self)

    def __sub__(self, o):
        return self._op("sub", self, o)

    def __rsub__(self, o):
        return self._op("sub", o, self)

    def __mul__(self, o):
        return self._op("mul", self, o)

    def __rmul__(self, o):
        return self._op("mul", o, self)

    def __floordiv__(self, o):
        return self._op("floordiv", self, o)

    def __mod__(self, o):
        return self._op("remainder", self, o)

    def __bool__(self):
        raise _jax.TracerBoolConversionError(
            "Attempted boolean conversion of traced array with shape bool[] in an index map"
        )


def _index_expr(x):
    if isinstance(x, _Index):
        return x.expr
    if isinstance(x, int) and not isinstance(x, bool):
        return {"kind": "const", "value": x}
    raise TypeError(
        "an index map returns block indices (integers computed from the grid indices), not "
        + type(x).__name__
    )


def _trace():
    trace = _jax._tracing.trace
    if trace is None:
        raise ValueError("program_id, num_programs and when are only available inside a Pallas kernel")
    return trace


def program_id(axis):
    trace = _trace()
    if axis < 0 or axis >= len(trace.grid):
        raise ValueError(
            "program_id(" + str(axis) + ") of a grid with " + str(len(trace.grid)) + " axes"
        )
    return _jax._emit({"kind": "program_id", "axis": axis}, (), _jax.int32)


def num_programs(axis):
    trace = _trace()
    if axis < 0 or axis >= len(trace.grid):
        raise ValueError(
            "num_programs(" + str(axis) + ") of a grid with " + str(len(trace.grid)) + " axes"
        )
    return trace.grid[axis]


def when(condition):
    """`@pl.when(cond)`: the decorated function's operations run where `cond` holds."""

    def decorator(f):
        if not isinstance(condition, _jax._Value):
            if condition:
                f()
            return None
        cond = condition
        if cond.shape != ():
            raise ValueError("pl.when needs a scalar condition, not one of shape " + repr(cond.shape))
        if cond.dtype != _jax.bool_:
            cond = cond != 0
        trace = _trace()
        outer = trace.body
        trace.body = []
        try:
            f()
        finally:
            inner = trace.body
            trace.body = outer
        outer.append(
            {
                "out": 0,
                "shape": [],
                "dtype": "bool",
                "op": {"kind": "when", "cond": cond._id, "body": inner},
                "line": torch._C.user_line(),
            }
        )
        return None

    return decorator


class _Ref:
    """A kernel's view of one operand's block."""

    def __init__(self, index, shape, dtype):
        self._index = index
        self.shape = tuple(shape)
        self.dtype = dtype

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return "Ref<" + self.dtype.name + "[" + ",".join(str(d) for d in self.shape) + "]>"

    def _window(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        items = [i for i in index if i is not ...]
        if len(items) < len(index) - 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if len(items) > self.ndim:
            raise IndexError(
                "too many indices for a ref of rank " + str(self.ndim) + ": " + str(len(items))
            )
        if len(items) < len(index):
            at = list(index).index(...)
            index = list(index[:at]) + [slice(None)] * (self.ndim - len(items)) + list(index[at + 1:])
        else:
            index = list(index) + [slice(None)] * (self.ndim - len(index))
        window = []
        shape = []
        for item, n in zip(index, self.shape):
            if isinstance(item, _DS):
                start, size = item.start, item.size
                if not isinstance(start, int) or not isinstance(size, int):
                    raise NotImplementedError(
                        "pl.ds with a traced start or size (static windows only in this playground)"
                    )
                if start < 0 or size < 0 or start + size > n:
                    raise IndexError(
                        "pl.ds(" + str(start) + ", " + str(size) + ") is outside a block dimension of " + str(n)
                    )
                window.append({"start": start, "size": size, "drop": False})
                shape.append(size)
            elif isinstance(item, slice):
                for bound in (item.start, item.stop, item.step):
                    if bound is not None and not isinstance(bound, int):
                        raise NotImplementedError(
                            "a slice of a ref with traced bounds (static slices only in this playground)"
                        )
                if item.step is not None and item.step != 1:
                    raise NotImplementedError("a strided slice of a ref (step " + str(item.step) + ")")
                start = 0 if item.start is None else item.start
                stop = n if item.stop is None else item.stop
                start = _py_max(0, _py_min(n, start + n if start < 0 else start))
                stop = _py_max(start, _py_min(n, stop + n if stop < 0 else stop))
                window.append({"start": start, "size": stop - start, "drop": False})
                shape.append(stop - start)
            elif isinstance(item, int):
                i = item + n if item < 0 else item
                if i < 0 or i >= n:
                    raise IndexError(
                        "index " + str(item) + " is out of bounds for a block dimension of " + str(n)
                    )
                window.append({"start": i, "size": 1, "drop": True})
            elif isinstance(item, _jax._Value):
                raise NotImplementedError(
                    "indexing a ref at a traced position (static windows only in this playground)"
                )
            else:
                raise TypeError("a ref is indexed by slices, integers and pl.ds, not " + type(item).__name__)
        return window, tuple(shape)

    def __getitem__(self, index):
        window, shape = self._window(index)
        return _jax._emit({"kind": "load", "r": self._index, "window": window}, shape, self.dtype)

    def __setitem__(self, index, value):
        window, shape = self._window(index)
        if not isinstance(value, _jax._Value):
            value = _jax._constant(value, self.dtype)
        if tuple(value.shape) != shape:
            raise ValueError(
                "Invalid shape for `swap`. Ref shape: " + repr(self.shape) + ". Expected shape: "
                + repr(shape) + ". Value shape: " + repr(tuple(value.shape)) + ". Transforms: (). "
            )
        if value.dtype != self.dtype:
            raise ValueError(
                "Invalid dtype for `swap`. Ref dtype: " + self.dtype.name + ". Value dtype: "
                + value.dtype.name + ". "
            )
        _trace().body.append(
            {
                "out": 0,
                "shape": [],
                "dtype": self.dtype.name,
                "op": {"kind": "store", "r": self._index, "window": window, "value": value._id},
                "line": torch._C.user_line(),
            }
        )

    def __getattr__(self, name):
        raise NotImplementedError("Ref." + name + " in a Pallas kernel")


def _specs(specs, count, what):
    if specs is None:
        return [BlockSpec()] * count
    if isinstance(specs, BlockSpec):
        specs = [specs]
    specs = list(specs)
    if len(specs) != count:
        raise ValueError(
            "Pytree for `" + what + "` and " + ("inputs" if what == "in_specs" else "`out_shape`")
            + " do not match: " + str(len(specs)) + " block specs for " + str(count) + " arrays."
        )
    return specs


def _block_text(block):
    parts = []
    for b in block:
        parts.append("Squeezed()" if b is None or isinstance(b, Squeezed) else "Blocked(block_size=" + str(b) + ")")
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"


def _block_ref(spec, shape, dtype, grid, what):
    shape = tuple(shape)
    block = spec.block_shape
    if block is None:
        block = shape
    if len(block) != len(shape):
        raise ValueError(
            "Block shape for " + what + " (= " + _block_text(block) + ") must have the same number of dimensions as the array shape "
            + repr(shape) + "."
        )
    sizes = []
    squeezed = []
    for b in block:
        if b is None or isinstance(b, Squeezed):
            sizes.append(1)
            squeezed.append(True)
        elif isinstance(b, int) and b > 0:
            sizes.append(b)
            squeezed.append(False)
        else:
            raise ValueError("a block dimension is a positive integer or None, not " + repr(b))
    ids = [_Index({"kind": "program_id", "axis": a}) for a in range(len(grid))]
    if spec.index_map is None:
        indices = [0] * len(shape)
    else:
        indices = spec.index_map(*ids)
        if not isinstance(indices, (tuple, list)):
            indices = (indices,)
    if len(indices) != len(shape):
        raise ValueError(
            "Index map function " + getattr(spec.index_map, "__name__", "index_map") + " for " + what
            + " must return " + str(len(shape)) + " values to match block_shape=" + _block_text(block)
            + ". Currently returning " + str(len(indices)) + " values:"
        )
    return {
        "shape": list(shape),
        "dtype": dtype.name,
        "block": sizes,
        "squeezed": squeezed,
        "index_map": [_index_expr(i) for i in indices],
    }


def _kernel_name(kernel, name):
    if name is not None:
        return name
    while not hasattr(kernel, "__name__") and hasattr(kernel, "func"):
        kernel = kernel.func
    return getattr(kernel, "__name__", "kernel")


def pallas_call(kernel, out_shape, *, grid_spec=None, grid=(), in_specs=None, out_specs=None,
                scratch_shapes=(), input_output_aliases=None, debug=False, interpret=False,
                name=None, compiler_params=None, cost_estimate=None, metadata=None):
    if grid_spec is not None:
        raise NotImplementedError("pallas_call(grid_spec=...) (pass grid, in_specs and out_specs)")
    if scratch_shapes:
        raise NotImplementedError("pallas_call(scratch_shapes=...) (VMEM scratch buffers)")
    if input_output_aliases:
        raise NotImplementedError("pallas_call(input_output_aliases=...)")
    if isinstance(grid, int):
        grid = (grid,)
    grid = tuple(grid)
    for n in grid:
        if not isinstance(n, int) or n < 1:
            raise ValueError("a grid is a tuple of positive integers, not " + repr(grid))
    several = isinstance(out_shape, (tuple, list))
    outs = list(out_shape) if several else [out_shape]
    for o in outs:
        if not hasattr(o, "shape") or not hasattr(o, "dtype"):
            raise TypeError("out_shape holds jax.ShapeDtypeStruct values, not " + type(o).__name__)
        _jax._check_shape(o.shape)

    def call(*args):
        if _jax._tracing.trace is not None:
            raise NotImplementedError("a pallas_call inside a Pallas kernel")
        arrays = [_jax._array(a) for a in args]
        ins = _specs(in_specs, len(arrays), "in_specs")
        outspecs = _specs(out_specs, len(outs), "out_specs")
        refs = []
        for i, (spec, a) in enumerate(zip(ins, arrays)):
            refs.append(_block_ref(spec, a.shape, a.dtype, grid, "args[" + str(i) + "]"))
        for i, (spec, o) in enumerate(zip(outspecs, outs)):
            refs.append(_block_ref(spec, o.shape, _jax._dtype(o.dtype), grid, "outputs[" + str(i) + "]"))
        views = []
        for i, r in enumerate(refs):
            shape = [b for b, s in zip(r["block"], r["squeezed"]) if not s]
            views.append(_Ref(i, shape, _jax._dtype(r["dtype"])))
        trace = _jax._Trace(grid)
        _jax._tracing.trace = trace
        try:
            kernel(*views)
        finally:
            _jax._tracing.trace = None
        traced = {
            "name": _kernel_name(kernel, name),
            "grid": list(grid),
            "refs": refs,
            "inputs": len(arrays),
            "body": trace.body,
            "values": trace.values,
        }
        results = torch._C.pallas_call(_json(traced), [a._tensor for a in arrays])
        results = [_jax.Array(t) for t in results]
        if not several:
            return results[0]
        return tuple(results) if isinstance(out_shape, tuple) else results

    return call


def _json(x):
    if x is None:
        return "null"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, (int, float)):
        return repr(x)
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(_json(v) for v in x) + "]"
    return "{" + ",".join(_json(k) + ":" + _json(v) for k, v in x.items()) + "}"


def _to_jax(x):
    if isinstance(x, torch.Tensor):
        return _jax.Array(x)
    if isinstance(x, (tuple, list)):
        return type(x)(_to_jax(v) for v in x)
    return x


def _to_torch(x):
    if isinstance(x, _jax.Array):
        return x._tensor
    if isinstance(x, (tuple, list)):
        return type(x)(_to_torch(v) for v in x)
    return x


def custom_jax_kernel(fn):
    """`@torch_tpu.pallas.custom_jax_kernel`: `fn` is a JAX function (usually
    calling `pl.pallas_call`); called with torch tensors, it sees them as
    `jax.Array`s and returns torch tensors."""

    def kernel(*args, **kwargs):
        jax_args = [_to_jax(a) for a in args]
        jax_kwargs = {k: _to_jax(v) for k, v in kwargs.items()}
        return _to_torch(fn(*jax_args, **jax_kwargs))

    return kernel


def __getattr__(name):
    raise NotImplementedError("jax.experimental.pallas." + name + " is not supported in this playground yet")
