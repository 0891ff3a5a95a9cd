# bfloat16 inputs: the JAX function casts float32 arrays to bfloat16 before
# the pallas_call; the kernel multiplies them on the MXU with float32
# accumulation (preferred_element_type), and computes in bfloat16 elsewhere,
# writing float32 outputs. (Where bfloat16 rounds between operations differs:
# XLA keeps float32 inside a fusion, this playground rounds after each
# operation as PyTorch does; the check below allows either.)
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def bf16_kernel(x_ref, w_ref, o_ref, e_ref):
    x = x_ref[...]
    o_ref[...] = jnp.dot(x, w_ref[...], preferred_element_type=jnp.float32)
    e_ref[...] = (x * 3.0 + 1.0).astype(jnp.float32)


@torch_tpu.pallas.custom_jax_kernel
def bf16_matmul(x, w):
    xb = x.astype(jnp.bfloat16)
    wb = w.astype(jnp.bfloat16)
    m, k = x.shape
    n = w.shape[1]
    return pl.pallas_call(
        bf16_kernel,
        out_shape=(jax.ShapeDtypeStruct((m, n), jnp.float32), jax.ShapeDtypeStruct((m, k), jnp.float32)),
        grid=(m // 16,),
        in_specs=[pl.BlockSpec((16, k), lambda i: (i, 0)), pl.BlockSpec((k, n), lambda i: (0, 0))],
        out_specs=(pl.BlockSpec((16, n), lambda i: (i, 0)), pl.BlockSpec((16, k), lambda i: (i, 0))))(xb, wb)


torch.manual_seed(7)
x = torch.randn(32, 64, device=device)
w = torch.randn(64, 24, device=device)
out, e = bf16_matmul(x, w)
want = x.bfloat16().float() @ w.bfloat16().float()
print(out.dtype, tuple(out.shape), torch.allclose(out.cpu(), want.cpu(), atol=1e-3))
print(torch.allclose(e.cpu(), (x.bfloat16().float() * 3.0 + 1.0).cpu(), rtol=1e-2, atol=1e-2))
print(round(out.sum().item(), 3), [round(v, 4) for v in e[0, :4].tolist()])
print((out - x @ w).abs().max().item() > 1e-3)
