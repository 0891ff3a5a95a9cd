# torch.random: the default generator's seeding and state (in PyTorch's
# 5056-byte format, so a state saved by real PyTorch restores here and the
# other way round), and fork_rng (in crates/tpu-torch/python/glue_random.py).
from torch import get_rng_state, initial_seed, manual_seed, seed, set_rng_state
