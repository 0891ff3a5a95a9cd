# Layer norm over rows, one block of rows per grid point: the mean and the
# variance reduced inside the block, jax.lax.rsqrt, and 1-D weight and bias
# refs that every grid point reads whole.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def layernorm_kernel(x_ref, g_ref, b_ref, o_ref):
    x = x_ref[...]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    centered = x - mean
    var = jnp.mean(centered * centered, axis=-1, keepdims=True)
    o_ref[...] = centered * jax.lax.rsqrt(var + 1e-5) * g_ref[...] + b_ref[...]


@torch_tpu.pallas.custom_jax_kernel
def layernorm(x, g, b):
    n, d = x.shape
    return pl.pallas_call(
        layernorm_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(n // 16,),
        in_specs=[pl.BlockSpec((16, d), lambda i: (i, 0)), pl.BlockSpec((d,), lambda i: (0,)),
                  pl.BlockSpec((d,), lambda i: (0,))],
        out_specs=pl.BlockSpec((16, d), lambda i: (i, 0)))(x, g, b)


torch.manual_seed(4)
x = torch.randn(64, 96, device=device) * 3 + 1
g = torch.randn(96, device=device)
b = torch.randn(96, device=device)
out = layernorm(x, g, b)
want = torch.nn.functional.layer_norm(x, (96,), g, b, eps=1e-5)
print(tuple(out.shape), torch.allclose(out.cpu(), want.cpu(), atol=1e-4))
print(round(out.mean().item(), 4), round(out.std().item(), 4), [round(v, 4) for v in out[0, :4].tolist()])
