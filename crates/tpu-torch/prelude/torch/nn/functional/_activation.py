# torch.nn.functional's further activations, losses, normalisations and
# rearrangements (part of the module's body, after __init__.py and _cnn.py),
# each as ATen computes it, from torch ops so that autograd covers it.

TYPE_CHECKING = False


def has_torch_function(*relevant_args):
    # No tensor type here overrides torch functions through __torch_function__.
    return False


has_torch_function_unary = has_torch_function
has_torch_function_variadic = has_torch_function


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    return public_api(*args, **kwargs)


def _inplace_form(fn):
    # `F.relu_(x)`: the out-of-place result written into x.
    def inplace(input, *args, **kwargs):
        return input.copy_(fn(input, *args, **kwargs))
    inplace.__name__ = inplace.__qualname__ = fn.__name__ + "_"
    return inplace


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    _check_inplace(input, inplace)
    out = torch.where(input > 0, input, ((input / alpha).exp() - 1) * alpha)
    return _renamed(out, "EluBackward0")


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    _check_inplace(input, inplace)
    out = torch.where(input > 0, input * _SELU_SCALE, (input.exp() - 1) * (_SELU_ALPHA * _SELU_SCALE))
    return _renamed(out, "EluBackward0")


def softplus(input, beta=1.0, threshold=20.0):
    scaled = input * beta
    out = torch.where(scaled > threshold, input, scaled.exp().log1p() / beta)
    return _renamed(out, "SoftplusBackward0")


def softsign(input):
    return input / (input.abs() + 1)


def softshrink(input, lambd=0.5):
    if lambd < 0:
        raise RuntimeError("lambda must be greater or equal to 0, but found to be " + str(lambd) + ".")
    # Inside the band x * 0, so -0.0 for negative x, as ATen's.
    out = torch.where(input > lambd, input - lambd, torch.where(input < -lambd, input + lambd, input * 0))
    return _renamed(out, "SoftshrinkBackward0")


def hardshrink(input, lambd=0.5):
    zero = torch.zeros((), dtype=input.dtype, device=input.device)
    out = torch.where((input > lambd) | (input < -lambd), input, zero)
    return _renamed(out, "HardshrinkBackward0")


def tanhshrink(input):
    return input - input.tanh()


def threshold(input, threshold, value, inplace=False):
    _check_inplace(input, inplace)
    out = torch.where(input > threshold, input, torch.full((), value, dtype=input.dtype, device=input.device))
    return _renamed(out, "ThresholdBackward0")


def logsigmoid(input):
    # ATen's min(x, 0) - log1p(exp(-|x|)), one side at a time so that the
    # gradient at 0 is sigmoid(0) = 0.5, as ATen's.
    low, high = input.clamp(max=0.0), input.clamp(min=0.0)
    out = torch.where(input < 0, low - low.exp().log1p(), -(-high).exp().log1p())
    return _renamed(out, "LogSigmoidBackward0")


def mish(input, inplace=False):
    return _renamed(input * softplus(input).tanh(), "MishBackward0")


def hardsigmoid(input, inplace=False):
    # ATen: min(max(x + 3, 0), 6) / 6.
    # The gradient is 1/6 strictly inside (-3, 3), as ATen's backward.
    shifted = input + 3
    out = torch.where((input > -3) & (input < 3), shifted / 6, (shifted.clamp(0.0, 6.0) / 6).detach())
    return _renamed(out, "HardsigmoidBackward0")


def hardswish(input, inplace=False):
    # x (x + 3) / 6 strictly inside (-3, 3), x above, 0 below, and so
    # the gradient, as ATen's backward.
    inside = torch.where((input > -3) & (input < 3), input * (input + 3) / 6, (input * 0).detach())
    return _renamed(torch.where(input >= 3, input, inside), "HardswishBackward0")


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if input.shape[dim] % 2:
        raise RuntimeError("Halving dimension must be even, but dimension " + str(dim % input.dim()) + " is size "
                           + str(input.shape[dim]))
    a, b = input.chunk(2, dim)
    return _renamed(a * b.sigmoid(), "GluBackward0")


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return softmax(-input, dim, dtype=dtype)


def prelu(input, weight):
    if weight.numel() != 1 and (input.dim() < 2 or input.shape[1] != weight.numel()):
        raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           + str(weight.numel()) + " and channel size = "
                           + str(input.shape[1] if input.dim() > 1 else 1) + ".")
    w = weight.reshape([-1] + [1] * (input.dim() - 2)) if weight.numel() != 1 else weight.reshape(())
    return _renamed(torch.where(input > 0, input, input * w), "PreluKernelBackward0")


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if training:
        raise NotImplementedError("rrelu(training=True) is not supported yet (its random slopes are ATen's "
                                  "per-element draws)")
    return leaky_relu(input, (lower + upper) / 2, inplace)


relu_ = _inplace_form(relu)
elu_ = _inplace_form(elu)
leaky_relu_ = _inplace_form(leaky_relu)
hardtanh_ = _inplace_form(hardtanh)
celu_ = _inplace_form(celu)
selu_ = _inplace_form(selu)
threshold_ = _inplace_form(threshold)
rrelu_ = _inplace_form(rrelu)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _alpha_dropout(input, p, training, inplace, False)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    return _alpha_dropout(input, p, training, inplace, True)


def _alpha_dropout(input, p, training, inplace, feature):
    # ATen's _dropout_impl with alpha: a bernoulli(1 - p) draw per element
    # (per sample and channel for the feature form), then an affine map that
    # keeps SELU's mean and variance.
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:
        return input * torch.zeros_like(input)
    shape = list(input.shape)
    if feature:
        shape = shape[:2] + [1] * (input.dim() - 2)
    noise = torch.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1.0 - p)
    alpha = 1.7580993408473766
    a = 1.0 / math.sqrt((alpha * alpha * p + 1) * (1 - p))
    b = (noise - 1) * (alpha * a) + alpha * a * p
    out = input * (noise * a) + b
    return input.copy_(out) if inplace else out


def dropout3d(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
    if input.dim() == 4:
        return _feature_dropout(input.unsqueeze(0), p, training, False).squeeze(0)
    return _feature_dropout(input, p, training, inplace)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    gumbels = -torch.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = torch.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return _reduce((-target * (input1 - input2) + margin).clamp(min=0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    zero = torch.zeros((), dtype=input.dtype, device=input.device)
    loss = torch.where(target != 1, (margin - input).clamp(min=0), zero) + torch.where(target != -1, input, zero)
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return _reduce((-input * target).exp().log1p(), reduction)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    dim = input1.dim() - 1
    eps = 1e-12
    prod = (input1 * input2).sum(dim)
    denom = (((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)).sqrt()
    cos = prod / denom
    zero = torch.zeros((), dtype=cos.dtype, device=cos.device)
    loss = torch.where(target == 1, 1 - cos, zero) + torch.where(target == -1, (cos - margin).clamp(min=0), zero)
    return _reduce(loss, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((d_pos - d_neg + margin).clamp(min=0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    _check_reduction(reduction)
    distance = distance_function if distance_function is not None else pairwise_distance
    d_pos = distance(anchor, positive)
    d_neg = distance(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, distance(positive, negative))
    return _reduce((d_pos - d_neg + margin).clamp(min=0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-08, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        safe = torch.where(target > 1, target, torch.ones_like(target))
        stirling = safe * safe.log() - safe + 0.5 * (2 * math.pi * safe).log()
        loss = loss + torch.where(target > 1, stirling, torch.zeros_like(stirling))
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-06, reduction="mean"):
    _check_reduction(reduction)
    if isinstance(var, (int, float)):
        var = torch.full((), float(var), dtype=input.dtype, device=input.device)
    if var.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1) and var.dim() > 0:
            raise ValueError("var is of incorrect size")
    if (var < 0).any().item():
        raise ValueError("var has negative entry/entries")
    with torch.no_grad():
        floor = var.clamp(min=eps) - var
    var = var + floor
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    dim = input.dim() - 1
    loss = loss.sum(dim) / input.shape[dim]
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    y = target.reshape(-1)
    picked = x.gather(1, y.unsqueeze(1))
    terms = (margin - picked + x).clamp(min=0)
    if p == 2:
        terms = terms * terms
    if weight is not None:
        terms = terms * weight[y].unsqueeze(1)
    own = torch.arange(x.shape[1], device=x.device).unsqueeze(0) == y.unsqueeze(1)
    terms = torch.where(own, torch.zeros((), dtype=terms.dtype, device=terms.device), terms)
    loss = terms.sum(1) / x.shape[1]
    if input.dim() < 2:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-05):
    if not use_input_stats:
        return batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    n, c = input.shape[0], input.shape[1]
    dims = list(range(2, input.dim()))
    mean = input.mean(dims, keepdim=True)
    centered = input - mean
    var = (centered * centered).mean(dims, keepdim=True)
    if running_mean is not None or running_var is not None:
        count = input.numel() // (n * c)
        with torch.no_grad():
            if running_mean is not None:
                running_mean.mul_(1 - momentum).add_(mean.reshape(n, c).mean(0) * momentum)
            if running_var is not None:
                unbiased = var.reshape(n, c).mean(0) * (count / max(count - 1, 1))
                running_var.mul_(1 - momentum).add_(unbiased * momentum)
    out = centered * (var + eps).rsqrt()
    view = [1, c] + [1] * len(dims)
    if weight is not None:
        out = out * weight.reshape(view)
    if bias is not None:
        out = out + bias.reshape(view)
    return out


def rms_norm(input, normalized_shape, weight=None, eps=None):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    dims = [input.dim() - len(normalized_shape) + i for i in range(len(normalized_shape))]
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    out = input * ((input * input).mean(dims, keepdim=True) + eps).rsqrt()
    return out * weight if weight is not None else out


def local_response_norm(input, size, alpha=0.0001, beta=0.75, k=1.0):
    # As PyTorch's Python: the squares averaged over `size` neighbouring channels.
    if input.dim() < 3:
        raise ValueError("Expected 3D or higher dimensionality input (got " + str(input.dim()) + " dimensions)")
    div = (input * input).unsqueeze(1)
    if input.dim() == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = list(input.shape)
        div = div.reshape(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = div.unfold(2, size, 1).mean(-1).squeeze(1).reshape(sizes)
    div = (div * alpha + k) ** beta
    return input / div


def pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    *batch, c, h, w = input.shape
    if c % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           "upscale_factor, but input.size(-3)=" + str(c) + " is not divisible by " + str(r * r))
    n = len(batch)
    out = input.reshape(batch + [c // (r * r), r, r, h, w])
    out = out.permute(list(range(n)) + [n, n + 3, n + 1, n + 4, n + 2])
    return out.reshape(batch + [c // (r * r), h * r, w * r])


def pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    *batch, c, h, w = input.shape
    if h % r or w % r:
        raise RuntimeError("pixel_unshuffle expects height and width to be divisible by downscale_factor, but "
                           "input.size(-2)=" + str(h) + " and input.size(-1)=" + str(w))
    n = len(batch)
    out = input.reshape(batch + [c, h // r, r, w // r, r])
    out = out.permute(list(range(n)) + [n, n + 2, n + 4, n + 1, n + 3])
    return out.reshape(batch + [c * r * r, h // r, w // r])


def channel_shuffle(input, groups):
    n, c = input.shape[0], input.shape[1]
    rest = list(input.shape[2:])
    if c % groups:
        raise RuntimeError("Number of channels must be divisible by groups. Got " + str(c) + " channels and "
                           + str(groups) + " groups.")
    return input.reshape([n, groups, c // groups] + rest).transpose(1, 2).reshape(input.shape)


native_channel_shuffle = channel_shuffle


def pdist(input, p=2):
    n = input.shape[0]
    rows, cols = torch.triu_indices(n, n, 1)
    return torch.norm(input[rows] - input[cols], p, -1)


def bilinear(input1, input2, weight, bias=None):
    out = torch.einsum("...i,oij,...j->...o", input1, weight, input2)
    return out + bias if bias is not None else out


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag(max_norm=, scale_grad_by_freq=, sparse=) is not supported yet")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='" + mode + "'). Please open a feature "
                                  "request on GitHub.")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type " + str(type(offsets)))
        bags = [(i * input.shape[1], (i + 1) * input.shape[1]) for i in range(input.shape[0])]
        flat = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    else:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        starts = offsets.tolist()
        if include_last_offset:
            ends = starts[1:]
            starts = starts[:-1]
        else:
            ends = starts[1:] + [input.shape[0]]
        bags = list(zip(starts, ends))
        flat = input
    ids = flat.tolist()
    rows = []
    for start, end in bags:
        keep = [i for i in range(start, end) if padding_idx is None or ids[i] != padding_idx]
        if not keep:
            rows.append(torch.zeros(weight.shape[1], dtype=weight.dtype, device=weight.device))
            continue
        index = torch.tensor(keep, device=flat.device)
        picked = weight[flat[index]]
        if per_sample_weights is not None:
            picked = picked * per_sample_weights[index].unsqueeze(1)
        if mode == "sum":
            rows.append(picked.sum(0))
        elif mode == "mean":
            rows.append(picked.mean(0))
        else:
            rows.append(picked.max(0).values)
    if not rows:
        return torch.zeros(0, weight.shape[1], dtype=weight.dtype, device=weight.device)
    return torch.stack(rows)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    out = avg_pool1d(input.pow(norm_type), kernel_size, stride if stride is not None else kernel_size, 0,
                     ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kh, kw = _tuple(kernel_size, 2)
    out = avg_pool2d(input.pow(norm_type), kernel_size, stride if stride is not None else kernel_size, 0,
                     ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kh * kw).pow(1.0 / norm_type)


def _taps(input, kernel_size):
    # A one-hot kernel per tap: unfold is a grouped convolution with it and
    # fold the transposed one, so both run as the convolutions here do.
    kh, kw = _tuple(kernel_size, 2)
    k = kh * kw
    eye = torch.eye(k, dtype=input.dtype, device=input.device).reshape(k, 1, kh, kw)
    return eye, k


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() != 4:
        raise NotImplementedError("Input Error: Only 4D input Tensors are supported (got " + str(input.dim())
                                  + "D)")
    eye, k = _taps(input, kernel_size)
    c = input.shape[1]
    out = conv2d(input, eye.repeat(c, 1, 1, 1), None, _tuple(stride, 2), _tuple(padding, 2),
                 _tuple(dilation, 2), c)
    return out.reshape(input.shape[0], c * k, -1)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() != 3:
        raise NotImplementedError("Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  "(got " + str(input.dim()) + "D)")
    eye, k = _taps(input, kernel_size)
    (oh, ow), (kh, kw) = _tuple(output_size, 2), _tuple(kernel_size, 2)
    (dh, dw), (ph, pw), (sh, sw) = _tuple(dilation, 2), _tuple(padding, 2), _tuple(stride, 2)
    rows = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    cols = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if input.shape[1] % k or rows * cols != input.shape[2]:
        raise RuntimeError("Given output_size=(" + str(oh) + ", " + str(ow) + "), kernel_size=(" + str(kh) + ", "
                           + str(kw) + "), dilation=(" + str(dh) + ", " + str(dw) + "), padding=(" + str(ph)
                           + ", " + str(pw) + "), stride=(" + str(sh) + ", " + str(sw) + "), expected size of "
                           "input's dimension 2 to match the calculated number of sliding blocks " + str(rows)
                           + " * " + str(cols) + " = " + str(rows * cols) + ", but got input.size(2)="
                           + str(input.shape[2]) + ".")
    c = input.shape[1] // k
    x = input.reshape(input.shape[0], c * k, rows, cols)
    extra = (oh + 2 * ph - ((rows - 1) * sh + dh * (kh - 1) + 1), ow + 2 * pw - ((cols - 1) * sw + dw * (kw - 1) + 1))
    return conv_transpose2d(x, eye.repeat(c, 1, 1, 1), None, (sh, sw), (ph, pw), extra, c, (dh, dw))


def _source_index(size_in, size_out, scale_factor, align_corners, mode):
    # ATen's area_pixel_compute_scale and source index, per output position:
    # (lower index, upper index, upper weight), or the nearest index.
    if align_corners:
        scale = (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
    elif scale_factor is not None:
        scale = 1.0 / scale_factor
    else:
        scale = size_in / size_out
    if mode == "nearest":
        return [min(int(math.floor(i * scale)), size_in - 1) for i in range(size_out)]
    if mode == "nearest-exact":
        return [min(int(math.floor((i + 0.5) * scale)), size_in - 1) for i in range(size_out)]
    lows, highs, weights = [], [], []
    for i in range(size_out):
        src = i * scale if align_corners else max(scale * (i + 0.5) - 0.5, 0.0)
        low = int(src)
        lows.append(low)
        highs.append(low + 1 if low < size_in - 1 else low)
        weights.append(src - low)
    return lows, highs, weights


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    linear = {"linear": 1, "bilinear": 2, "trilinear": 3}
    if mode in ("nearest", "nearest-exact", "area"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | "
                             "bilinear | bicubic | trilinear")
    elif mode in linear:
        if input.dim() - 2 != linear[mode]:
            raise NotImplementedError("Got " + str(input.dim()) + "D input, but " + mode + " mode needs "
                                      + str(linear[mode] + 2) + "D input")
    else:
        raise NotImplementedError("interpolate(mode='" + str(mode) + "') is not supported yet")
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not supported yet")
    spatial = input.dim() - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("either size or scale_factor should be defined" if size is None
                         else "only one of size or scale_factor should be defined")
    if size is not None:
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * spatial
        scales = [None] * spatial
    else:
        scales = list(scale_factor) if isinstance(scale_factor, (list, tuple)) else [scale_factor] * spatial
        sizes = [int(math.floor(input.shape[2 + d] * scales[d])) for d in range(spatial)]
        if recompute_scale_factor:
            scales = [None] * spatial
    if mode == "area":
        return (adaptive_avg_pool1d if spatial == 1 else adaptive_avg_pool2d)(input, sizes)
    out = input
    for d in range(spatial):
        dim = 2 + d
        found = _source_index(input.shape[dim], sizes[d], scales[d], bool(align_corners), mode)
        if mode.startswith("nearest"):
            out = out.index_select(dim, torch.tensor(found, device=input.device))
            continue
        lows, highs, weights = found
        shape = [1] * input.dim()
        shape[dim] = sizes[d]
        w1 = torch.tensor(weights, dtype=input.dtype, device=input.device).reshape(shape)
        low = out.index_select(dim, torch.tensor(lows, device=input.device))
        high = out.index_select(dim, torch.tensor(highs, device=input.device))
        out = low * (1 - w1) + high * w1
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
