# numpy.random: `seed` only. NumPy's legacy generator (MT19937 seeded by
# `init_genrand`, its own Gaussian and bounded-integer draws) is not
# reproduced, so every draw raises NotImplementedError naming itself rather
# than giving numbers NumPy would not.
_seed = None


def seed(seed=None):
    global _seed
    if seed is not None and not (isinstance(seed, int) and 0 <= seed < 2**32):
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    _seed = seed


def __getattr__(name):
    raise NotImplementedError("numpy.random.%s is not in tpu-playground's numpy subset" % name)
