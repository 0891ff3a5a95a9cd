# torch.random: the default generator's seeding, and fork_rng (defined in Rust).
from torch import manual_seed, initial_seed, seed
