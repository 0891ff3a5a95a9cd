# `import jax`: the part of JAX that Pallas kernels are written with, over torch
# tensors. Outside a kernel a `jax.Array` is a torch tensor on the tpu device
# (`Array`); inside one, values are tracers (`_Value`) whose operations append
# block operations to the trace of the `pallas_call` being traced (`_Trace`),
# which `pallas.py` sends to the runtime as one `tpu_ir::PallasKernel`.
# Anything else raises NotImplementedError naming it.
import torch


class _DType:
    def __init__(self, name, kind, torch_dtype, itemsize):
        self.name = name
        self.kind = kind
        self.torch = torch_dtype
        self.itemsize = itemsize

    def __repr__(self):
        return "dtype('" + self.name + "')"

    def __str__(self):
        return self.name

    def __eq__(self, other):
        found = _lookup(other)
        return found is not None and found.name == self.name

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.name)

    def __call__(self, x):
        # `jnp.float32(2.0)`: a constant of this dtype in a kernel.
        if _tracing.trace is not None:
            return _cast(_constant(x, self), self)
        if self.kind == "f":
            return float(x)
        if self.kind == "i":
            return int(x)
        return bool(x)


float32 = _DType("float32", "f", torch.float32, 4)
bfloat16 = _DType("bfloat16", "f", torch.bfloat16, 2)
int32 = _DType("int32", "i", torch.int32, 4)
bool_ = _DType("bool", "b", torch.bool, 1)
_DTYPES = [float32, bfloat16, int32, bool_]
# JAX without x64 holds 64-bit values in 32 bits.
_FROM_TORCH = [
    (torch.float32, float32),
    (torch.float64, float32),
    (torch.bfloat16, bfloat16),
    (torch.int32, int32),
    (torch.int64, int32),
    (torch.bool, bool_),
]


def _lookup(x):
    if isinstance(x, _DType):
        return x
    if isinstance(x, str):
        for d in _DTYPES:
            if d.name == x:
                return d
        return None
    if x is float:
        return float32
    if x is int:
        return int32
    if x is bool:
        return bool_
    if isinstance(x, (int, float, _Value)):
        return None
    for t, d in _FROM_TORCH:
        if x == t:
            return d
    return None


def _dtype(x):
    found = _lookup(x)
    if found is None:
        raise NotImplementedError(
            "the dtype " + str(x) + " in a Pallas kernel (float32, bfloat16, int32 and bool are supported)"
        )
    return found


def dtype(x):
    return _dtype(x)


class ShapeDtypeStruct:
    def __init__(self, shape, dtype, sharding=None):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = _dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self):
        return "ShapeDtypeStruct(shape=" + repr(self.shape) + ", dtype=" + self.dtype.name + ")"


class Array:
    """A `jax.Array` outside a kernel: a torch tensor, read as JAX reads it."""

    def __init__(self, tensor):
        d = _dtype(tensor.dtype)
        if tensor.dtype != d.torch:
            tensor = tensor.to(d.torch)
        self._tensor = tensor

    @property
    def shape(self):
        return tuple(self._tensor.shape)

    @property
    def dtype(self):
        return _dtype(self._tensor.dtype)

    @property
    def ndim(self):
        return self._tensor.dim()

    @property
    def size(self):
        return self._tensor.numel()

    def astype(self, dtype):
        return Array(self._tensor.to(_dtype(dtype).torch))

    def __repr__(self):
        return "Array(shape=" + repr(self.shape) + ", dtype=" + self.dtype.name + ")"

    def __getattr__(self, name):
        raise NotImplementedError(
            "jax.Array." + name + " outside a Pallas kernel (this playground runs JAX only inside pallas_call)"
        )


def _array(x):
    if isinstance(x, Array):
        return x
    if isinstance(x, torch.Tensor):
        raise TypeError(
            "Error interpreting argument to pallas_call as an abstract array. The problematic value is of type "
            "<class 'torch.Tensor'>: call pallas_call from a function decorated with "
            "@torch_tpu.pallas.custom_jax_kernel, which passes torch tensors to JAX"
        )
    raise NotImplementedError(
        "a pallas_call argument of type " + type(x).__name__ + " (pass tensors or jax arrays)"
    )


class _Tracing:
    """The kernel being traced (`trace`), or None outside kernels."""

    trace = None


_tracing = _Tracing()


class _Trace:
    def __init__(self, grid):
        self.grid = grid
        self.body = []
        self.values = 0


def _outside(name):
    raise NotImplementedError(
        name + " outside a Pallas kernel (this playground runs JAX only inside pallas_call)"
    )


def _emit(op, shape, dtype):
    trace = _tracing.trace
    if trace is None:
        _outside("jax.numpy." + op["kind"])
    vid = trace.values
    trace.values = vid + 1
    trace.body.append(
        {"out": vid, "shape": list(shape), "dtype": dtype.name, "op": op, "line": torch._C.user_line()}
    )
    return _Value(vid, shape, dtype)


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class TracerBoolConversionError(TypeError):
    pass


class _Value:
    """A traced block value inside a kernel."""

    def __init__(self, vid, shape, dtype):
        self._id = vid
        self.shape = tuple(shape)
        self.dtype = dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return _numel(self.shape)

    @property
    def T(self):
        return _transpose(self)

    def __repr__(self):
        return "Traced<" + self.dtype.name + "[" + ",".join(str(d) for d in self.shape) + "]>"

    def __bool__(self):
        raise TracerBoolConversionError(
            "Attempted boolean conversion of traced array with shape "
            + self.dtype.name
            + "["
            + ",".join(str(d) for d in self.shape)
            + "]. Inside a Pallas kernel, use pl.when(condition) or jnp.where instead of `if`."
        )

    def __index__(self):
        raise NotImplementedError(
            "a traced value used as a Python integer (slices of refs take static bounds here)"
        )

    def __int__(self):
        self.__index__()

    def __float__(self):
        self.__index__()

    def __add__(self, o):
        return _binary("add", self, o)

    def __radd__(self, o):
        return _binary("add", o, self)

    def __sub__(self, o):
        return _binary("sub", self, o)

    def __rsub__(self, o):
        return _binary("sub", o, self)

    def __mul__(self, o):
        return _binary("mul", self, o)

    def __rmul__(self, o):
        return _binary("mul", o, self)

    def __truediv__(self, o):
        return _binary("div", self, o)

    def __rtruediv__(self, o):
        return _binary("div", o, self)

    def __floordiv__(self, o):
        return _binary("floordiv", self, o)

    def __rfloordiv__(self, o):
        return _binary("floordiv", o, self)

    def __mod__(self, o):
        return _binary("remainder", self, o)

    def __rmod__(self, o):
        return _binary("remainder", o, self)

    def __pow__(self, o):
        return _binary("pow", self, o)

    def __rpow__(self, o):
        return _binary("pow", o, self)

    def __matmul__(self, o):
        return _dot(self, o, None)

    def __neg__(self):
        return _unary("neg", self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _unary("abs", self)

    def __lt__(self, o):
        return _compare("lt", self, o)

    def __le__(self, o):
        return _compare("le", self, o)

    def __gt__(self, o):
        return _compare("gt", self, o)

    def __ge__(self, o):
        return _compare("ge", self, o)

    def __eq__(self, o):
        return _compare("eq", self, o)

    def __ne__(self, o):
        return _compare("ne", self, o)

    def __hash__(self):
        return self._id

    def astype(self, dtype):
        return _cast(self, _dtype(dtype))

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return _reshape(self, shape)

    def sum(self, axis=None, keepdims=False):
        return _reduce("sum", self, axis, keepdims)

    def max(self, axis=None, keepdims=False):
        return _reduce("max", self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return _reduce("min", self, axis, keepdims)

    def mean(self, axis=None, keepdims=False):
        return _mean(self, axis, keepdims)

    def __getitem__(self, index):
        # `x[:, None]`, `x[None, :]`: new axes of size 1.
        if not isinstance(index, tuple):
            index = (index,)
        shape = []
        rest = list(self.shape)
        for item in index:
            if item is None:
                shape.append(1)
            elif isinstance(item, slice) and item.start is None and item.stop is None and item.step is None:
                if not rest:
                    raise IndexError("too many indices for array")
                shape.append(rest.pop(0))
            elif item is ...:
                shape.extend(rest)
                rest = []
            else:
                raise NotImplementedError(
                    "indexing a traced value with " + repr(item) + " (load the window from the ref instead)"
                )
        return _reshape(self, shape + rest)

    def __getattr__(self, name):
        raise NotImplementedError("the method ." + name + "() of a traced value in a Pallas kernel")


def _constant(x, like_dtype=None):
    """A Python number as a scalar value, weakly typed as JAX types it."""
    if isinstance(x, bool):
        d = bool_
    elif isinstance(x, int):
        d = like_dtype if like_dtype is not None and like_dtype.kind in ("i", "f") else int32
    elif isinstance(x, float):
        d = like_dtype if like_dtype is not None and like_dtype.kind == "f" else float32
    else:
        raise TypeError("unsupported operand of type " + type(x).__name__ + " in a Pallas kernel")
    return _emit({"kind": "const", "value": _number(x)}, (), d)


def _number(x):
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _value(x, like=None):
    if isinstance(x, _Value):
        return x
    if isinstance(x, (Array, torch.Tensor)):
        raise NotImplementedError(
            "an array captured from outside the kernel (pass it to pallas_call as an input)"
        )
    return _constant(x, like.dtype if like is not None else None)


def _promote(a, b):
    if a == b:
        return a
    order = {"b": 0, "i": 1, "f": 2}
    if order[a.kind] != order[b.kind]:
        return a if order[a.kind] > order[b.kind] else b
    return float32


def _broadcast_shapes(a, b):
    out = []
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise TypeError(
                "add got incompatible shapes for broadcasting: " + repr(a) + ", " + repr(b) + "."
            )
    return tuple(out)


def _cast(x, d):
    if x.dtype == d:
        return x
    return _emit({"kind": "cast", "a": x._id}, x.shape, d)


def _broadcast_to(x, shape):
    shape = tuple(shape)
    if x.shape == shape:
        return x
    _broadcast_shapes(x.shape, shape)
    return _emit({"kind": "broadcast", "a": x._id}, shape, x.dtype)


def _reshape(x, shape):
    shape = list(int(d) for d in shape)
    if -1 in shape:
        known = _numel([d for d in shape if d != -1])
        shape[shape.index(-1)] = x.size // known if known else 0
    if _numel(shape) != x.size:
        raise TypeError(
            "cannot reshape array of shape " + repr(x.shape) + " (size " + str(x.size) + ") into shape " + repr(tuple(shape))
        )
    if tuple(shape) == x.shape:
        return x
    return _emit({"kind": "reshape", "a": x._id}, shape, x.dtype)


def _transpose(x):
    if x.ndim < 2:
        return x
    if x.ndim != 2:
        raise NotImplementedError("transposing a traced value of rank " + str(x.ndim) + " (2-D only)")
    return _emit({"kind": "transpose", "a": x._id}, (x.shape[1], x.shape[0]), x.dtype)


def _operands(a, b):
    """Both operands as values of one dtype, each the result's shape or a scalar."""
    like = a if isinstance(a, _Value) else b
    a = _value(a, like)
    b = _value(b, like)
    d = _promote(a.dtype, b.dtype)
    a = _cast(a, d)
    b = _cast(b, d)
    shape = _broadcast_shapes(a.shape, b.shape)
    if a.shape != () and a.shape != shape:
        a = _broadcast_to(a, shape)
    if b.shape != () and b.shape != shape:
        b = _broadcast_to(b, shape)
    return a, b, shape


def _binary(op, a, b):
    like = a if isinstance(a, _Value) else b
    a = _value(a, like)
    b = _value(b, like)
    if op in ("div", "pow") and a.dtype.kind != "f" and b.dtype.kind != "f":
        if op == "div":
            a = _cast(a, float32)
            b = _cast(b, float32)
    a, b, shape = _operands(a, b)
    return _emit({"kind": "binary", "op": op, "a": a._id, "b": b._id}, shape, a.dtype)


def _compare(op, a, b):
    a, b, shape = _operands(a, b)
    return _emit({"kind": "compare", "op": op, "a": a._id, "b": b._id}, shape, bool_)


_FLOAT_ONLY = ("exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos", "erf")


def _unary(op, x):
    x = _value(x)
    if op in _FLOAT_ONLY and x.dtype.kind != "f":
        x = _cast(x, float32)
    return _emit({"kind": "unary", "op": op, "a": x._id}, x.shape, x.dtype)


def _where(cond, a, b):
    like = a if isinstance(a, _Value) else b if isinstance(b, _Value) else None
    cond = _value(cond)
    if cond.dtype != bool_:
        cond = _compare("ne", cond, 0)
    a = _value(a, like)
    b = _value(b, like)
    d = _promote(a.dtype, b.dtype)
    a = _cast(a, d)
    b = _cast(b, d)
    shape = _broadcast_shapes(_broadcast_shapes(cond.shape, a.shape), b.shape)
    parts = []
    for v in (cond, a, b):
        parts.append(v if v.shape == () or v.shape == shape else _broadcast_to(v, shape))
    return _emit({"kind": "where", "cond": parts[0]._id, "a": parts[1]._id, "b": parts[2]._id}, shape, d)


def _axes(x, axis):
    if axis is None:
        return list(range(x.ndim))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if a < -x.ndim or a >= x.ndim:
            raise ValueError(
                "axis " + str(a) + " is out of bounds for array of dimension " + str(x.ndim)
            )
        out.append(a % x.ndim if x.ndim else 0)
    return sorted(set(out))


def _reduce(op, x, axis, keepdims):
    x = _value(x)
    axes = _axes(x, axis)
    if op == "sum" and x.dtype == bool_:
        x = _cast(x, int32)
    shape = []
    for i, d in enumerate(x.shape):
        if i in axes:
            if keepdims:
                shape.append(1)
        else:
            shape.append(d)
    if not axes:
        return x
    return _emit({"kind": "reduce", "op": op, "a": x._id, "axes": axes, "keepdims": bool(keepdims)}, shape, x.dtype)


def _mean(x, axis, keepdims):
    x = _value(x)
    axes = _axes(x, axis)
    count = 1
    for a in axes:
        count *= x.shape[a]
    # Like `jnp.mean`: integers become float32, bfloat16 is computed in float32.
    wide = _cast(x, float32)
    out = _reduce("sum", wide, axis, keepdims) / float(count)
    return _cast(out, x.dtype) if x.dtype == bfloat16 else out


def _dot(a, b, preferred_element_type):
    a = _value(a)
    b = _value(b)
    if a.ndim != 2 or b.ndim != 2:
        raise NotImplementedError(
            "jnp.dot of shapes " + repr(a.shape) + " and " + repr(b.shape) + " in a Pallas kernel (2-D blocks only)"
        )
    if a.shape[1] != b.shape[0]:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, got ("
            + str(a.shape[1]) + ",) and (" + str(b.shape[0]) + ",)."
        )
    d = _promote(a.dtype, b.dtype)
    if d.kind != "f":
        raise NotImplementedError("jnp.dot of integer blocks in a Pallas kernel")
    a = _cast(a, d)
    b = _cast(b, d)
    out = d if preferred_element_type is None else _dtype(preferred_element_type)
    return _emit({"kind": "dot", "a": a._id, "b": b._id}, (a.shape[0], b.shape[1]), out)


def _full(shape, value, dtype):
    if isinstance(shape, int):
        shape = (shape,)
    d = _dtype(dtype) if dtype is not None else None
    v = _value(value) if isinstance(value, _Value) else _constant(value, d)
    if d is not None:
        v = _cast(v, d)
    return _broadcast_to(v, tuple(shape))


def jit(fun=None, **options):
    """`jax.jit`: the function itself (a `pallas_call` compiles its kernel anyway)."""
    if fun is None:
        return lambda f: f
    return fun

