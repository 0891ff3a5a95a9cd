# Custom kernels in Pallas, as TorchTPU takes them: a JAX function decorated
# with torch_tpu.pallas.custom_jax_kernel calls pl.pallas_call on torch tensors.
# The Kernels panel shows each call's grid, blocks, VMEM use and MXU fit, and
# the WGSL shader it became.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


# A blocked matmul: the grid is (i, j, k); the output block (i, j) stays put
# while k walks the contraction, so it is zeroed at k == 0 and accumulated.
def matmul_kernel(x_ref, y_ref, o_ref):
    @pl.when(pl.program_id(2) == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.dot(x_ref[...], y_ref[...])


@torch_tpu.pallas.custom_jax_kernel
def matmul(x, y):
    m, k = x.shape
    n = y.shape[1]
    return pl.pallas_call(
        matmul_kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        grid=(m // 128, n // 128, k // 128),
        in_specs=[pl.BlockSpec((128, 128), lambda i, j, kk: (i, kk)),
                  pl.BlockSpec((128, 128), lambda i, j, kk: (kk, j))],
        out_specs=pl.BlockSpec((128, 128), lambda i, j, kk: (i, j)),
    )(x, y)


# RMSNorm, eight rows per grid point: a reduction inside the block.
def rmsnorm_kernel(x_ref, w_ref, o_ref):
    x = x_ref[...]
    scale = jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)
    o_ref[...] = x * scale * w_ref[...]


@torch_tpu.pallas.custom_jax_kernel
def rmsnorm(x, w):
    n, d = x.shape
    return pl.pallas_call(
        rmsnorm_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(n // 8,),
        in_specs=[pl.BlockSpec((8, d), lambda i: (i, 0)), pl.BlockSpec((d,), lambda i: (0,))],
        out_specs=pl.BlockSpec((8, d), lambda i: (i, 0)),
    )(x, w)


torch.manual_seed(0)
x = torch.randn(256, 384, device=device)
w = torch.randn(384, 256, device=device) / 20
h = matmul(x, w)
print("matmul", tuple(h.shape), torch.allclose(h.cpu(), (x @ w).cpu(), atol=1e-4))

g = torch.ones(256, device=device)
y = rmsnorm(h, g)
want = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6)
print("rmsnorm", tuple(y.shape), torch.allclose(y.cpu(), want.cpu(), atol=1e-5))
print("rms of a row:", round(y[0].pow(2).mean().item(), 4))
