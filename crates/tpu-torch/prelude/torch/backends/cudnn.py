# torch.backends.cudnn: no cuDNN here (as in PyTorch's CPU-only build); the
# flags keep PyTorch's defaults and may be set.
enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None
