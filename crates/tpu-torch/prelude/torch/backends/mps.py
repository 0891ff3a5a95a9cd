# torch.backends.mps: no Apple GPU here.


def is_available():
    return False


def is_built():
    return False
