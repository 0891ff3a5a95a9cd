# Program ids in arithmetic, pl.num_programs, pl.when on the last grid step,
# and jax.lax.fori_loop with static bounds.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"


def tag_kernel(x_ref, o_ref):
    i = pl.program_id(0)
    j = pl.program_id(1)
    o_ref[...] = x_ref[...] + (i * 100 + j * 10).astype(jnp.float32) + pl.num_programs(1)


def powers_kernel(x_ref, o_ref):
    def body(k, acc):
        return acc * 0.5 + x_ref[...] * k

    o_ref[...] = jax.lax.fori_loop(0, 4, body, jnp.zeros_like(x_ref[...]))

    @pl.when(pl.program_id(0) == pl.num_programs(0) - 1)
    def _():
        o_ref[...] = -o_ref[...]


@torch_tpu.pallas.custom_jax_kernel
def tag(x):
    spec = pl.BlockSpec((4, 8), lambda i, j: (i, j))
    return pl.pallas_call(tag_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(3, 2),
                          in_specs=[spec], out_specs=spec)(x)


@torch_tpu.pallas.custom_jax_kernel
def powers(x):
    spec = pl.BlockSpec((8, 16), lambda i: (i, 0))
    return pl.pallas_call(powers_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(3,),
                          in_specs=[spec], out_specs=spec)(x)


x = torch.zeros(12, 16, device=device)
t = tag(x)
print(t[::4, ::8].tolist())
y = torch.ones(24, 16, device=device)
p = powers(y)
print(p[::8, 0].tolist(), round(p.sum().item(), 4))
