# A row softmax over 20 rows in blocks of 8: the last block runs past the
# array, its padded rows are computed and dropped, and the real rows are exact.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def softmax_kernel(x_ref, o_ref):
    x = x_ref[...]
    z = x - jnp.max(x, axis=1, keepdims=True)
    e = jnp.exp(z)
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)


@torch_tpu.pallas.custom_jax_kernel
def softmax(x):
    n, d = x.shape
    spec = pl.BlockSpec((8, d), lambda i: (i, 0))
    return pl.pallas_call(softmax_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(pl.cdiv(n, 8),), in_specs=[spec], out_specs=spec)(x)


torch.manual_seed(5)
x = torch.randn(20, 40, device=device) * 4
p = softmax(x)
print(tuple(p.shape), torch.allclose(p.cpu(), torch.softmax(x, dim=1).cpu(), atol=1e-6))
print([round(v, 5) for v in p.sum(dim=1)[-4:].tolist()], round(p.max().item(), 5))
print(p.argmax(dim=1)[:8].tolist())
