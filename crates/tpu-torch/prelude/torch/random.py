# torch.random: the default generator's seeding, and fork_rng (in
# crates/tpu-torch/python/glue_random.py).
# `torch.random.seed()` (a non-deterministic seed) is PyTorch's but not this
# playground's, where every run is reproducible: it raises NotImplementedError.
from torch import manual_seed, initial_seed


def seed():
    raise NotImplementedError("torch.random.seed() (a non-deterministic seed) is not supported; use torch.manual_seed")
