# A blocked matmul that accumulates over the last grid axis: the output block
# is zeroed at k == 0 (pl.when), each step adds a block product, and the
# last step adds the bias and applies ReLU. m and n are ragged.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def linear_relu_kernel(x_ref, w_ref, b_ref, o_ref):
    k = pl.program_id(2)

    @pl.when(k == 0)
    def _():
        o_ref[...] = jnp.zeros_like(o_ref)

    o_ref[...] += jnp.dot(x_ref[...], w_ref[...])

    @pl.when(k == pl.num_programs(2) - 1)
    def _():
        o_ref[...] = jnp.maximum(o_ref[...] + b_ref[...], 0.0)


@torch_tpu.pallas.custom_jax_kernel
def linear_relu(x, w, b):
    m, k = x.shape
    n = w.shape[1]
    bm, bk, bn = 32, 64, 64
    return pl.pallas_call(
        linear_relu_kernel, out_shape=jax.ShapeDtypeStruct((m, n), x.dtype),
        grid=(pl.cdiv(m, bm), pl.cdiv(n, bn), k // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, kk: (i, kk)),
                  pl.BlockSpec((bk, bn), lambda i, j, kk: (kk, j)),
                  pl.BlockSpec((1, bn), lambda i, j, kk: (0, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, kk: (i, j)))(x, w, b)


torch.manual_seed(3)
x = torch.randn(72, 192, device=device)
w = torch.randn(192, 100, device=device) / 8
b = torch.randn(1, 100, device=device)
out = linear_relu(x, w, b)
want = torch.relu(x @ w + b)
print(tuple(out.shape), torch.allclose(out.cpu(), want.cpu(), atol=1e-4))
print(round(out.sum().item(), 2), round(out.max().item(), 4), int((out > 0).sum().item()))
