# The neural-network ops `torch` has beside torch.nn.functional's forms
# (`torch.conv2d`, `torch.layer_norm`, `torch.dropout`, ...), with ATen's
# parameter orders and integer reductions, and torch's global switches
# (threads, determinism, matmul precision). Part of the `torch` module's body,
# after _elementwise.py. torch.nn.functional is imported on first call:
# it imports torch.


def _F():
    import torch.nn.functional as F
    return F


_REDUCTIONS = ("none", "mean", "sum")


def _reduction(reduction):
    # ATen's loss functions take the reduction as an enum: 0 none, 1 mean, 2 sum.
    return _REDUCTIONS[reduction] if _py_isinstance(reduction, _py_int) else reduction


def conv1d(input, weight, bias=None, stride=[1], padding=[0], dilation=[1], groups=1):
    return _F().conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1):
    return _F().conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=[1], padding=[0], output_padding=[0], groups=1, dilation=[1]):
    return _F().conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=[1, 1], padding=[0, 0], output_padding=[0, 0], groups=1,
                     dilation=[1, 1]):
    return _F().conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return _F().layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    return _F().group_norm(input, num_groups, weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _F().rms_norm(input, normalized_shape, weight, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return _F().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return _F().instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return _F().embedding(indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0,
                          scale_grad_by_freq, sparse)


def bilinear(input1, input2, weight, bias=None):
    return _F().bilinear(input1, input2, weight, bias)


def max_pool1d(input, kernel_size, stride=[], padding=[0], dilation=[1], ceil_mode=False):
    return _F().max_pool1d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=[], padding=[0, 0], dilation=[1, 1], ceil_mode=False):
    return _F().max_pool2d(input, kernel_size, stride or None, padding, dilation, ceil_mode)


def avg_pool1d(input, kernel_size, stride=[], padding=[0], ceil_mode=False, count_include_pad=True):
    return _F().avg_pool1d(input, kernel_size, stride or None, padding, ceil_mode, count_include_pad)


def adaptive_avg_pool1d(input, output_size):
    return _F().adaptive_avg_pool1d(input, output_size)


def pixel_shuffle(input, upscale_factor):
    return _F().pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return _F().pixel_unshuffle(input, downscale_factor)


def channel_shuffle(input, groups):
    return _F().channel_shuffle(input, groups)


native_channel_shuffle = _alias(channel_shuffle, "native_channel_shuffle")


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    return _F().cosine_similarity(x1, x2, dim, eps)


def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    return _F().pairwise_distance(x1, x2, p, eps, keepdim)


def pdist(input, p=2.0):
    return _F().pdist(input, p)


def celu(input, alpha=1.0):
    return _F().celu(input, alpha)


def selu(input):
    return _F().selu(input)


def threshold(input, threshold, value):
    return _F().threshold(input, threshold, value)


def hardshrink(input, lambd=0.5):
    return _F().hardshrink(input, lambd)


def prelu(input, weight):
    return _F().prelu(input, weight)


def rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    if generator is not None:
        raise NotImplementedError("rrelu(generator=...) is not supported yet")
    return _F().rrelu(input, lower, upper, training)


def celu_(input, alpha=1.0):
    return input.copy_(celu(input, alpha))


def selu_(input):
    return input.copy_(selu(input))


def threshold_(input, threshold, value):
    return input.copy_(_F().threshold(input, threshold, value))


def rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None):
    return input.copy_(rrelu(input, lower, upper, training, generator))


def dropout(input, p, train):
    return _F().dropout(input, p, train)


def dropout_(input, p, train):
    return _F().dropout(input, p, train, True)


def feature_dropout(input, p, train):
    return _F()._feature_dropout(input, p, train, False)


def feature_dropout_(input, p, train):
    return _F()._feature_dropout(input, p, train, True)


def alpha_dropout(input, p, train):
    return _F().alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    return _F().alpha_dropout(input, p, train, True)


def feature_alpha_dropout(input, p, train):
    return _F().feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p, train):
    return _F().feature_alpha_dropout(input, p, train, True)


def kl_div(input, target, reduction=1, *, log_target=False):
    return _F().kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return _F().binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                                 pos_weight=pos_weight)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return _F().margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    return _F().hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    return _F().cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1):
    return _F().triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _F().poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


for _name in ["hardshrink", "prelu"]:
    setattr(Tensor, _name, _method(globals()[_name]))


# Global switches. Every op here is deterministic and runs on one host
# thread, so these record what a program sets and report it back.
_switches = {"threads": 1, "interop_threads": 1, "deterministic": False, "warn_only": False,
             "matmul_precision": "highest", "warn_always": False}


def get_num_threads():
    return _switches["threads"]


def set_num_threads(num):
    if num <= 0:
        raise RuntimeError("Number of threads must be positive")
    _switches["threads"] = num


def get_num_interop_threads():
    return _switches["interop_threads"]


def set_num_interop_threads(num):
    if num <= 0:
        raise RuntimeError("Number of interop threads must be positive")
    _switches["interop_threads"] = num


def use_deterministic_algorithms(mode, *, warn_only=False):
    _switches["deterministic"] = _py_bool(mode)
    _switches["warn_only"] = _py_bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _switches["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _switches["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    modes = {"default": 0, "warn": 1, "error": 2}
    mode = modes.get(debug_mode, debug_mode) if _py_isinstance(debug_mode, str) else debug_mode
    if mode not in (0, 1, 2):
        raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                           + str(debug_mode))
    use_deterministic_algorithms(mode > 0, warn_only=mode == 1)


def get_deterministic_debug_mode():
    if not _switches["deterministic"]:
        return 0
    return 1 if _switches["warn_only"] else 2


def get_float32_matmul_precision():
    return _switches["matmul_precision"]


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError("Invalid precision " + str(precision) + ", expected one of: highest, high, medium")
    _switches["matmul_precision"] = precision


def set_warn_always(b):
    _switches["warn_always"] = _py_bool(b)


def is_warn_always_enabled():
    return _switches["warn_always"]


def set_flush_denormal(mode):
    # Denormals are kept: flushing them is not supported, as PyTorch reports
    # on a CPU without the instruction.
    return False


def get_default_device():
    return _C.get_default_device()


def set_default_device(device):
    # Factories given no device make their tensors on it; `with
    # torch.device("meta"):` does the same for a block.
    _C.set_default_device(device)


def seed():
    # A non-deterministic seed, as PyTorch's: the one call that makes a run
    # differ from the last.
    import os
    s = _py_int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
    manual_seed(s)
    return s


def _rng_state_bytes(new_state):
    if not _py_isinstance(new_state, Tensor) or new_state.dtype != uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    return new_state.reshape(-1).tolist()


def get_rng_state():
    return tensor(_C.rng_get_state(None, 0), dtype=uint8)


def set_rng_state(new_state):
    _C.rng_set_state(_rng_state_bytes(new_state), None)
