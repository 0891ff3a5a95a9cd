# `jax.lax` inside Pallas kernels: `rsqrt`, the elementwise functions
# `jax.numpy` also has, and `fori_loop` over static bounds (unrolled, as
# a loop with a static trip count traces to the same block operations).
import jax as _jax
import jax.numpy as _jnp


def rsqrt(x):
    return 1.0 / _jax._unary("sqrt", x)


exp = _jnp.exp
log = _jnp.log
tanh = _jnp.tanh
sqrt = _jnp.sqrt
abs = _jnp.abs
max = _jnp.maximum
min = _jnp.minimum


def dot(a, b, precision=None, preferred_element_type=None):
    return _jax._dot(a, b, preferred_element_type)


def fori_loop(lower, upper, body_fun, init_val, unroll=None):
    if not isinstance(lower, int) or not isinstance(upper, int):
        raise NotImplementedError("jax.lax.fori_loop with traced bounds (static bounds only)")
    value = init_val
    for i in range(lower, upper):
        value = body_fun(i, value)
    return value


def __getattr__(name):
    raise NotImplementedError("jax.lax." + name + " is not supported in Pallas kernels yet")
