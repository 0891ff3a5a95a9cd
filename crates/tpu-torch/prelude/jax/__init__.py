# `import jax`: the part of JAX that Pallas kernels are written with, over torch
# tensors. Outside a kernel a `jax.Array` is a torch tensor on the tpu device
# (`Array`); inside one, values are tracers (`_Value`) whose operations append
# block operations to the trace of the `pallas_call` being traced (`_Trace`),
# which jax.experimental.pallas sends to the runtime as one
# `tpu_ir::PallasKernel`. Anything else raises NotImplementedError naming it.
# This file, then _ops.py (the operations on tracers, and `jit`), run as the
# module's body in one namespace:
# parts: _ops.py
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


def _check_shape(shape):
    # JAX's message for a shape that is not all integers (`canonicalize_shape`).
    if not all(isinstance(d, int) for d in shape):
        raise TypeError("Shapes must be 1D sequences of concrete values of integer type, got " + repr(shape) + ".")
    if any(d < 0 for d in shape):
        raise ValueError("a shape's dimensions are not negative, got " + repr(shape))
    return shape


class ShapeDtypeStruct:
    def __init__(self, shape, dtype, sharding=None):
        # JAX keeps the shape as given; what uses it checks it (`_check_shape`).
        self.shape = tuple(shape)
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
