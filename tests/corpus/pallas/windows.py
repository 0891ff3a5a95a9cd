# Static windows of refs: slices, an integer index that drops a dimension,
# pl.ds, stores into parts of a block, and new axes on traced values.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def windows_kernel(x_ref, o_ref):
    left = x_ref[:, 0:64]
    right = x_ref[:, 64:]
    first_row = x_ref[0]
    o_ref[:, 0:64] = left * right
    o_ref[:, 64:] = right - x_ref[0:1, 64:128]
    o_ref[pl.ds(4, 4), 0:64] = jnp.zeros((4, 64), jnp.float32) + x_ref[0, :64][None, :]
    o_ref[7, 127] = jnp.max(first_row)


@torch_tpu.pallas.custom_jax_kernel
def windows(x):
    return pl.pallas_call(windows_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(2,),
                          in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
                          out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))(x)


torch.manual_seed(9)
x = torch.randn(16, 128, device=device)
out = windows(x)
want = torch.empty(16, 128)
xc = x.cpu()
for b in range(2):
    blk = xc[b * 8:(b + 1) * 8]
    w = torch.cat([blk[:, :64] * blk[:, 64:], blk[:, 64:] - blk[0:1, 64:]], dim=1)
    w[4:8, :64] = blk[0, :64]
    w[7, 127] = blk[0].max()
    want[b * 8:(b + 1) * 8] = w
print(tuple(out.shape), torch.allclose(out.cpu(), want, atol=1e-6))
print(round(out.sum().item(), 4), [round(v, 4) for v in out[12, 60:68].tolist()])
