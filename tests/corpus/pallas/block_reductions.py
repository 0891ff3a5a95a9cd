# Reductions inside blocks: per-block sums written to a (grid_m, grid_n)
# output through (1, 1) blocks, column statistics with keepdims, and means of
# integers computed in float32.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def partial_sums_kernel(x_ref, s_ref, c_ref):
    x = x_ref[...]
    s_ref[...] = jnp.sum(x).reshape(1, 1)
    c_ref[...] = jnp.min(x, axis=0, keepdims=True) + jnp.mean(x, axis=0, keepdims=True)


@torch_tpu.pallas.custom_jax_kernel
def partial_sums(x):
    m, n = x.shape
    gm, gn = m // 16, n // 32
    return pl.pallas_call(
        partial_sums_kernel,
        out_shape=(jax.ShapeDtypeStruct((gm, gn), x.dtype), jax.ShapeDtypeStruct((gm, n), x.dtype)),
        grid=(gm, gn), in_specs=[pl.BlockSpec((16, 32), lambda i, j: (i, j))],
        out_specs=(pl.BlockSpec((1, 1), lambda i, j: (i, j)), pl.BlockSpec((1, 32), lambda i, j: (i, j))))(x)


torch.manual_seed(8)
x = torch.randn(48, 96, device=device)
s, c = partial_sums(x)
blocks = x.reshape(3, 16, 3, 32)
print(tuple(s.shape), tuple(c.shape))
print(torch.allclose(s.cpu(), blocks.sum(dim=(1, 3)).cpu(), atol=1e-4))
want = blocks.amin(dim=1) + blocks.mean(dim=1)
print(torch.allclose(c.cpu(), want.reshape(3, 96).cpu(), atol=1e-5))
print([round(v, 4) for v in s.flatten().tolist()])
