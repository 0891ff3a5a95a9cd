# out_shape dimensions that are not integers, as a mutated program wrote them
# (`(n, 1e30)`): JAX accepts them into ShapeDtypeStruct and refuses them at
# pallas_call; a kernel with well-formed shapes still runs after.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def sum_max_kernel(x_ref, s_ref, m_ref):
    x = x_ref[...]
    s_ref[...] = x + x
    m_ref[...] = jnp.max(x, axis=1, keepdims=True)


@torch_tpu.pallas.custom_jax_kernel
def sum_max(x, width):
    n, d = x.shape
    block = pl.BlockSpec((8, d), lambda i: (i, 0))
    return pl.pallas_call(
        sum_max_kernel,
        out_shape=(jax.ShapeDtypeStruct((n, d), x.dtype), jax.ShapeDtypeStruct((n, width), x.dtype)),
        grid=(n // 8,), in_specs=[block],
        out_specs=(block, pl.BlockSpec((8, 1), lambda i: (i, 0))))(x)


print(jax.ShapeDtypeStruct((32, 1e30), jnp.float32))
x = torch.arange(32 * 48, dtype=torch.float32, device=device).reshape(32, 48)
for width in [1e30, 2.0, 1]:
    try:
        s, m = sum_max(x, width)
        print(width, tuple(s.shape), tuple(m.shape), s.sum().item(), m[:4, 0].tolist())
    except TypeError as e:
        print(width, type(e).__name__ + ":", e)
