# jax.experimental: a package; its one module here is jax.experimental.pallas.
