# Mistakes a kernel author makes, caught as JAX reports them: a store of the
# wrong shape or dtype, Python control flow on a traced value, an index map
# that returns the wrong number of indices, and a block of the wrong rank.
import torch
import torch_tpu
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl

device = "tpu"
x = torch.ones(8, 128, device=device)


@torch_tpu.pallas.custom_jax_kernel
def call(x, kernel, kw):
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32), **kw)(x)


def run(kernel, **kw):
    try:
        out = call(x, kernel, kw)
        print("ran", out.sum().item())
    except Exception as e:
        message = str(e).splitlines()[0]
        if "Index map" in message:
            # JAX names the index map's file and line here: left out.
            head, rest = message.split(" for ", 1)
            message = head.split(" at ")[0] + " for " + rest
        print(type(e).__name__ + ":", message)


def scalar_store(x_ref, o_ref):
    o_ref[...] = 0.0


def row_store(x_ref, o_ref):
    o_ref[...] = x_ref[0]


def bf16_store(x_ref, o_ref):
    o_ref[...] = x_ref[...].astype(jnp.bfloat16)


def python_if(x_ref, o_ref):
    if pl.program_id(0) == 0:
        o_ref[...] = x_ref[...]


def fine(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2


try:
    pl.pallas_call(scalar_store, out_shape=jax.ShapeDtypeStruct((8, 128), jnp.float32))(x)
except TypeError as e:
    print("a torch tensor passed to pallas_call itself:", type(e).__name__)
run(scalar_store)
run(row_store)
run(bf16_store)
try:
    call(x, python_if, dict(grid=(1,)))
except Exception as e:
    print(type(e).__name__, isinstance(e, TypeError))
run(fine, grid=(1,), in_specs=[pl.BlockSpec((8, 128), lambda i: (i,))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))
run(fine, grid=(1,), in_specs=[pl.BlockSpec((8,), lambda i: (i,))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))
run(fine, grid=(1,), in_specs=[pl.BlockSpec((8, 128), lambda i: (i, 0))],
    out_specs=pl.BlockSpec((8, 128), lambda i: (i, 0)))
