# torch._utils: the functions PyTorch's checkpoints name to rebuild their
# tensors and parameters (`torch.save` pickles a tensor as a call of
# `_rebuild_tensor_v2` on its storage), so that a checkpoint written by
# PyTorch loads here and one written here loads in PyTorch.
import collections

import torch


def _rebuild_tensor(storage, storage_offset, size, stride):
    # The window of `storage` (a flat tensor) that the view describes: its
    # elements gathered by their offsets, which for a contiguous view is a
    # slice reshaped.
    flat = storage._flat
    size = tuple(size)
    stride = tuple(stride)
    numel = 1
    for s in size:
        numel *= s
    if numel == 0:
        return torch.empty(size, dtype=flat.dtype, device=flat.device)
    contiguous = []
    step = 1
    for s in reversed(size):
        contiguous.insert(0, step)
        step *= s
    if tuple(contiguous) == stride or len(size) == 0:
        return flat[storage_offset:storage_offset + numel].reshape(size).clone()
    index = torch.full(size, storage_offset, dtype=torch.int64)
    for dim, (s, st) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[dim] = s
        index = index + (torch.arange(s, dtype=torch.int64) * st).reshape(shape)
    return flat[index.to(flat.device)]


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return torch.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = torch.nn.Parameter(data, requires_grad)
    for key, value in state.items():
        setattr(param, key, value)
    return param


def _empty_hooks():
    return collections.OrderedDict()
