# torch_tpu.pallas: TorchTPU's `custom_jax_kernel`, which lives with the rest of
# Pallas in jax.experimental.pallas. (`torch_tpu` itself is Rust.)
from jax.experimental.pallas import custom_jax_kernel
