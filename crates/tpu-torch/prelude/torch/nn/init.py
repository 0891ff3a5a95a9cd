# torch.nn.init, following PyTorch's torch/nn/init.py: the same formulas (bounds
# computed in Python floats) and the same draws from the generator, in the same
# order, so that seeded initialisations print PyTorch's values.
import math
import torch


def calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError("negative_slope " + str(param) + " not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    elif nonlinearity == "selu":
        return 3.0 / 4
    else:
        raise ValueError("Unsupported nonlinearity " + str(nonlinearity))


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    fan_in = num_input_fmaps * receptive_field_size
    fan_out = num_output_fmaps * receptive_field_size
    return fan_in, fan_out


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError("Mode " + mode + " not supported, please use one of " + str(valid_modes))
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def _generator_unsupported(generator):
    if generator is not None:
        raise NotImplementedError("torch.nn.init with generator= is not supported; the default generator is used")


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    _generator_unsupported(generator)
    with torch.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    _generator_unsupported(generator)
    with torch.no_grad():
        return tensor.normal_(mean, std)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    _generator_unsupported(generator)

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    with torch.no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            lo = torch.tensor(a, dtype=tensor.dtype).item()
            hi = torch.tensor(b, dtype=tensor.dtype).item()
            result = tensor.normal_(mean, std)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                result = torch.where(mask, torch.empty_like(result).normal_(mean, std), result)
            if tensor is not result:
                tensor.copy_(result)
        else:
            mode = max(a, min(mean, b))
            log_peak = -0.5 * ((mode - mean) / std) ** 2
            candidates = torch.empty_like(tensor)
            accept_buf = torch.empty_like(tensor)
            tensor.uniform_(a, b)
            candidates.copy_(tensor)
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            pending = accept_buf.uniform_().log_().gt(candidates)
            if pending.any():
                result = tensor
                while True:
                    candidates.uniform_(a, b)
                    result = torch.where(pending, candidates, result)
                    candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                    pending = torch.where(pending, accept_buf.uniform_().log_().gt(candidates), pending)
                    if not pending.any():
                        break
                tensor.copy_(result)
        return tensor


def constant_(tensor, val):
    with torch.no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    with torch.no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    with torch.no_grad():
        return tensor.zero_()


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        tensor.copy_(torch.eye(tensor.shape[0], tensor.shape[1], dtype=tensor.dtype, device=tensor.device))
    return tensor


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if 0 in tensor.shape:
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)


def orthogonal_(tensor, gain=1, generator=None):
    raise NotImplementedError("torch.nn.init.orthogonal_ (it needs a QR decomposition)")


def sparse_(tensor, sparsity, std=0.01, generator=None):
    raise NotImplementedError("torch.nn.init.sparse_")


def dirac_(tensor, groups=1):
    raise NotImplementedError("torch.nn.init.dirac_ (convolution weights)")
