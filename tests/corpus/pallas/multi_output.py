# A kernel with several outputs: the sum and the difference of two blocks,
# and each block row's maximum in an output of another shape.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def sum_diff_max_kernel(x_ref, y_ref, s_ref, d_ref, m_ref):
    x = x_ref[...]
    y = y_ref[...]
    s_ref[...] = x + y
    d_ref[...] = x - y
    m_ref[...] = jnp.max(jnp.maximum(x, y), axis=1, keepdims=True)


@torch_tpu.pallas.custom_jax_kernel
def sum_diff_max(x, y):
    n, d = x.shape
    block = pl.BlockSpec((8, d), lambda i: (i, 0))
    return pl.pallas_call(
        sum_diff_max_kernel,
        out_shape=(jax.ShapeDtypeStruct((n, d), x.dtype), jax.ShapeDtypeStruct((n, d), x.dtype),
                   jax.ShapeDtypeStruct((n, 1), x.dtype)),
        grid=(n // 8,), in_specs=[block, block],
        out_specs=(block, block, pl.BlockSpec((8, 1), lambda i: (i, 0))))(x, y)


torch.manual_seed(2)
x = torch.randn(32, 48, device=device)
y = torch.randn(32, 48, device=device)
s, d, m = sum_diff_max(x, y)
print(type(s).__name__, tuple(s.shape), tuple(d.shape), tuple(m.shape))
print(torch.allclose(s.cpu(), (x + y).cpu()), torch.allclose(d.cpu(), (x - y).cpu()))
print(torch.equal(m.cpu(), torch.maximum(x, y).amax(dim=1, keepdim=True).cpu()))
print(round(s.sum().item(), 4), round(d.abs().sum().item(), 4), [round(v, 4) for v in m[:4, 0].tolist()])
