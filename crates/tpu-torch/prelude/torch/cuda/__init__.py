# torch.cuda as PyTorch has it on a machine without an NVIDIA GPU: the
# queries answer (no device, nothing allocated), seeding does nothing (PyTorch
# seeds CUDA lazily, once a device exists), and what needs a device raises
# RuntimeError saying there is none. Scripts test `torch.cuda.is_available()`
# and fall back; this playground's accelerator is "tpu" (`torch.accelerator`).
# What else PyTorch's torch.cuda has raises NotImplementedError naming it.

_NO_DEVICE = ("this playground has no CUDA device; its accelerator is the TPU: "
              "use device=\"tpu\" (or \"cpu\")")


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def manual_seed(seed):
    pass


def manual_seed_all(seed):
    pass


def seed():
    pass


def seed_all():
    pass


def empty_cache():
    pass


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


def max_memory_reserved(device=None):
    return 0


def _no_device(*args, **kwargs):
    raise RuntimeError(_NO_DEVICE)


synchronize = _no_device
current_device = _no_device
get_device_name = _no_device
get_device_properties = _no_device
get_device_capability = _no_device
set_device = _no_device
get_rng_state = _no_device
get_rng_state_all = _no_device
set_rng_state = _no_device
set_rng_state_all = _no_device
initial_seed = _no_device
init = _no_device


def reset_peak_memory_stats(device=None):
    raise RuntimeError("invalid argument to reset_peak_memory_stats")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError("module 'torch.cuda' has no attribute '" + name + "'")
    raise NotImplementedError("torch.cuda." + name + " is not supported (" + _NO_DEVICE + ")")
