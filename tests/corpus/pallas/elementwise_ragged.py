# Elementwise kernels whose blocks run past the array's edge: a 2-D grid of
# (32, 128) blocks over a (100, 300) array, and a 1-D grid over 1000 values in
# blocks of 256. Pallas pads the reads and drops the writes past the edge.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def gated_kernel(x_ref, y_ref, o_ref):
    x = x_ref[...]
    o_ref[...] = jnp.where(x > 0, x * y_ref[...], jnp.exp(x) - 1.0)


@torch_tpu.pallas.custom_jax_kernel
def gated(x, y):
    spec = pl.BlockSpec((32, 128), lambda i, j: (i, j))
    return pl.pallas_call(gated_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(pl.cdiv(x.shape[0], 32), pl.cdiv(x.shape[1], 128)),
                          in_specs=[spec, spec], out_specs=spec)(x, y)


def axpy_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = 2.5 * x_ref[...] + y_ref[...]


@torch_tpu.pallas.custom_jax_kernel
def axpy(x, y):
    spec = pl.BlockSpec((256,), lambda i: (i,))
    return pl.pallas_call(axpy_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, jnp.float32),
                          grid=(pl.cdiv(x.shape[0], 256),), in_specs=[spec, spec], out_specs=spec)(x, y)


torch.manual_seed(1)
x = torch.randn(100, 300, device=device)
y = torch.randn(100, 300, device=device)
out = gated(x, y)
want = torch.where(x > 0, x * y, torch.exp(x) - 1.0)
print(tuple(out.shape), out.dtype, torch.allclose(out.cpu(), want.cpu(), atol=1e-5))
print(round(out.sum().item(), 3), round(out[99, 299].item(), 4), round(out[64:, 256:].abs().mean().item(), 4))
print(bool(torch.isfinite(out).all()))

a = torch.linspace(-1, 1, 1000, device=device)
b = torch.arange(1000, device=device, dtype=torch.float32) / 100
r = axpy(a, b)
print(r.shape, torch.allclose(r.cpu(), (2.5 * a + b).cpu()), [round(v, 4) for v in r[-3:].tolist()])
