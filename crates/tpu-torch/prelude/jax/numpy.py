# `jax.numpy` inside Pallas kernels: arithmetic with broadcasting, the
# elementwise functions, reductions with `axis`/`keepdims`, `dot`/`matmul`,
# the constructors of blocks, casts. Each appends block operations to the
# kernel being traced (`jax/__init__.py`); outside a kernel they raise
# NotImplementedError naming themselves.
import jax as _jax

float32 = _jax.float32
bfloat16 = _jax.bfloat16
int32 = _jax.int32
bool_ = _jax.bool_
dtype = _jax.dtype
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045


def exp(x):
    return _jax._unary("exp", x)


def log(x):
    return _jax._unary("log", x)


def tanh(x):
    return _jax._unary("tanh", x)


def sqrt(x):
    return _jax._unary("sqrt", x)


def sin(x):
    return _jax._unary("sin", x)


def cos(x):
    return _jax._unary("cos", x)


def abs(x):
    return _jax._unary("abs", x)


absolute = abs


def negative(x):
    return _jax._unary("neg", x)


def floor(x):
    return _jax._unary("floor", x)


def ceil(x):
    return _jax._unary("ceil", x)


def sign(x):
    return _jax._unary("sign", x)


def square(x):
    return x * x


def reciprocal(x):
    return 1.0 / _jax._value(x)


def maximum(a, b):
    return _jax._binary("maximum", a, b)


def minimum(a, b):
    return _jax._binary("minimum", a, b)


def add(a, b):
    return _jax._binary("add", a, b)


def subtract(a, b):
    return _jax._binary("sub", a, b)


def multiply(a, b):
    return _jax._binary("mul", a, b)


def divide(a, b):
    return _jax._binary("div", a, b)


true_divide = divide


def power(a, b):
    return _jax._binary("pow", a, b)


def where(condition, x, y):
    return _jax._where(condition, x, y)


def sum(a, axis=None, dtype=None, keepdims=False):
    out = _jax._reduce("sum", a, axis, keepdims)
    return out if dtype is None else out.astype(dtype)


def max(a, axis=None, keepdims=False):
    return _jax._reduce("max", a, axis, keepdims)


def min(a, axis=None, keepdims=False):
    return _jax._reduce("min", a, axis, keepdims)


amax = max
amin = min


def mean(a, axis=None, keepdims=False):
    return _jax._mean(a, axis, keepdims)


def dot(a, b, precision=None, preferred_element_type=None):
    return _jax._dot(a, b, preferred_element_type)


def matmul(a, b, precision=None, preferred_element_type=None):
    return _jax._dot(a, b, preferred_element_type)


def zeros_like(a, dtype=None):
    return _jax._full(a.shape, 0, dtype if dtype is not None else a.dtype)


def ones_like(a, dtype=None):
    return _jax._full(a.shape, 1, dtype if dtype is not None else a.dtype)


def full_like(a, fill_value, dtype=None):
    return _jax._full(a.shape, fill_value, dtype if dtype is not None else a.dtype)


def full(shape, fill_value, dtype=None):
    return _jax._full(shape, fill_value, dtype)


def zeros(shape, dtype=None):
    return _jax._full(shape, 0, dtype if dtype is not None else float32)


def ones(shape, dtype=None):
    return _jax._full(shape, 1, dtype if dtype is not None else float32)


def astype(x, dtype):
    return _jax._cast(_jax._value(x), _jax._dtype(dtype))


def reshape(a, shape):
    return _jax._reshape(_jax._value(a), shape if isinstance(shape, (tuple, list)) else (shape,))


def broadcast_to(a, shape):
    return _jax._broadcast_to(_jax._value(a), shape)


def transpose(a, axes=None):
    if axes is not None and tuple(axes) != (1, 0):
        raise NotImplementedError("jnp.transpose with axes " + repr(axes) + " (2-D transposes only)")
    return _jax._transpose(_jax._value(a))


def expand_dims(a, axis):
    a = _jax._value(a)
    shape = list(a.shape)
    axis = axis if axis >= 0 else axis + len(shape) + 1
    shape.insert(axis, 1)
    return _jax._reshape(a, shape)


def __getattr__(name):
    raise NotImplementedError("jax.numpy." + name + " is not supported in Pallas kernels yet")
