# A 3-D grid over a batch of matrices: the batch dimension of each block is
# None (squeezed), so the kernel sees 2-D refs; a per-batch scale is read as a
# (1, 1) block of a (B, 1, 1) array.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def scaled_tanh_kernel(x_ref, s_ref, o_ref):
    o_ref[...] = jnp.tanh(x_ref[...] * s_ref[...])


@torch_tpu.pallas.custom_jax_kernel
def scaled_tanh(x, s):
    b, m, n = x.shape
    return pl.pallas_call(
        scaled_tanh_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(b, m // 8, n // 16),
        in_specs=[pl.BlockSpec((None, 8, 16), lambda bi, i, j: (bi, i, j)),
                  pl.BlockSpec((None, 1, 1), lambda bi, i, j: (bi, 0, 0))],
        out_specs=pl.BlockSpec((None, 8, 16), lambda bi, i, j: (bi, i, j)))(x, s)


torch.manual_seed(6)
x = torch.randn(3, 16, 32, device=device)
s = torch.tensor([0.5, 1.0, 2.0], device=device).reshape(3, 1, 1)
out = scaled_tanh(x, s)
print(tuple(out.shape), torch.allclose(out.cpu(), torch.tanh(x * s).cpu(), atol=1e-6))
print([round(v, 4) for v in out.sum(dim=(1, 2)).tolist()])
