# torch.compiler: the public face of torch._dynamo.
import torch


def reset():
    torch._dynamo.reset()


def is_compiling():
    return torch._C.is_compiling()


def is_dynamo_compiling():
    return torch._C.is_compiling()


def disable(fn=None, recursive=True, reason=None):
    return torch._dynamo.disable(fn, recursive, reason)
