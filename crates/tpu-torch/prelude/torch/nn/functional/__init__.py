# torch.nn.functional, built from torch ops so that autograd covers it. The
# module's body is this file then _cnn.py (one namespace):
# parts: _cnn.py _activation.py
import math
import warnings

import torch


def relu(input, inplace=False):
    _check_inplace(input, inplace)
    return input.relu()


def _half_in_float32(fn, input, *args):
    # ATen computes these ops of a half-precision input in float32 and rounds
    # the result once; composed of several ops here, each would round.
    out = fn(input.to(torch.float32), *[a.to(torch.float32) if isinstance(a, torch.Tensor) and a.is_floating_point()
                                         else a for a in args])
    return out.to(input.dtype)


_HALF = (torch.bfloat16, torch.float16)


def gelu(input, approximate="none"):
    if input.dtype in _HALF:
        return _half_in_float32(lambda x: gelu(x, approximate), input)
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (input + 0.044715 * input * input * input)
        out = 0.5 * input * (1.0 + inner.tanh())
    else:
        out = input * 0.5 * (1.0 + (input * 0.7071067811865476).erf())
    torch._C.rename_grad_fn(out, "GeluBackward0")
    return out


def silu(input, inplace=False):
    if input.dtype in _HALF:
        return _half_in_float32(silu, input)
    out = input * input.sigmoid()
    torch._C.rename_grad_fn(out, "SiluBackward0")
    return out


def _check_inplace(input, inplace):
    # PyTorch refuses an in-place activation on a leaf that requires grad.
    if inplace and input.is_leaf and input.requires_grad and torch.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def leaky_relu(input, negative_slope=0.01, inplace=False):
    # `inplace=True` computes out of place, as F.relu does here: in-place
    # updates of tensors inside a graph are not supported yet. The result is
    # the same; only the input keeps its values.
    _check_inplace(input, inplace)
    out = torch.where(input > 0, input, input * negative_slope)
    torch._C.rename_grad_fn(out, "LeakyReluBackward1" if inplace else "LeakyReluBackward0")
    return out


def elu(input, alpha=1.0, inplace=False):
    _check_inplace(input, inplace)
    out = torch.where(input > 0, input, (input.exp() - 1) * alpha)
    torch._C.rename_grad_fn(out, "EluBackward0")
    return out


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    _check_inplace(input, inplace)
    # The gradient passes strictly inside (min_val, max_val), as ATen's
    # hardtanh_backward: at a bound it is 0 (clamp's would pass it).
    clamped = input.clamp(min_val, max_val)
    out = torch.where((input > min_val) & (input < max_val), input, clamped.detach())
    torch._C.rename_grad_fn(out, "HardtanhBackward0")
    return out


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return torch.log_softmax(input, dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
    if not training or p == 0.0:
        return input
    # ATen's CPU dropout: a noise tensor of bernoulli(1 - p) draws divided
    # by 1 - p, times the input, so a seed drops what PyTorch drops.
    if p == 1.0:
        return input.mul_(torch.zeros_like(input)) if inplace else input * torch.zeros_like(input)
    noise = torch.empty_like(input).bernoulli_(1.0 - p)
    noise.div_(1.0 - p)
    return input.mul_(noise) if inplace else input * noise


def linear(input, weight, bias=None):
    dtype = torch._autocast_dtype_for(input, weight)
    if dtype is not None:
        return torch._autocast_lowp(linear, (input, weight, bias), dtype)
    if input.dtype != weight.dtype:
        raise RuntimeError("mat1 and mat2 must have the same dtype, but got " + torch._scalar_type_name(input.dtype)
                           + " and " + torch._scalar_type_name(weight.dtype))
    if bias is not None and input.dim() == 2 and weight.dim() == 2 and input.shape[1] != weight.shape[1]:
        # PyTorch runs a 2-D linear with bias as one addmm, and says so.
        raise RuntimeError("addmm: mat1 and mat2 shapes cannot be multiplied (" + str(input.shape[0]) + "x"
                           + str(input.shape[1]) + " and " + str(weight.shape[1]) + "x" + str(weight.shape[0]) + ")")
    out = input @ weight.t()
    if bias is not None:
        out = out + bias
    return out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if hasattr(weight, "placements"):
        return torch.distributed.tensor._embedding(input, weight, padding_idx)
    if max_norm is not None:
        raise NotImplementedError("embedding(max_norm=...) is not supported yet")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding(scale_grad_by_freq=True, sparse=True) is not supported yet")
    if input.dtype != torch.int64 and input.dtype != torch.int32:
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           + "Long, Int; but got " + input.type() + " instead (while checking arguments for embedding)")
    try:
        rows = weight[input]
    except IndexError:
        raise IndexError("index out of range in self")
    if padding_idx is None:
        return rows
    if padding_idx < 0:
        padding_idx = weight.shape[0] + padding_idx
    # The padding row reads as stored but gets no gradient.
    return torch.where((input != padding_idx).unsqueeze(-1), rows, rows.detach())


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    if input.dtype in _HALF:
        return _half_in_float32(lambda x, w, b: group_norm(x, num_groups, w, b, eps), input, weight, bias)
    # Each sample's channels in num_groups groups, each group normalised over
    # its channels and positions, then the per-channel affine.
    if input.dim() < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received " + str(input.dim()))
    n, c = input.shape[0], input.shape[1]
    if c % num_groups != 0:
        raise RuntimeError("Expected number of channels in input to be divisible by num_groups, but got input of "
                           "shape " + str(list(input.shape)) + " and num_groups=" + str(num_groups))
    grouped = input.reshape(n, num_groups, -1)
    mean = grouped.mean(-1, keepdim=True)
    centered = grouped - mean
    var = (centered * centered).mean(-1, keepdim=True)
    out = (centered * (var + eps).rsqrt()).reshape(input.shape)
    channel = [1, c] + [1] * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(channel)
    if bias is not None:
        out = out + bias.reshape(channel)
    torch._C.rename_grad_fn(out, "NativeGroupNormBackward0")
    return out


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    if input.dtype in _HALF:
        return _half_in_float32(lambda x, w, b: layer_norm(x, normalized_shape, w, b, eps), input, weight, bias)
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
    if weight is None and bias is None:
        dims = [input.dim() - n + i for i in range(n)]
        out = torch._sharded_along(input, dims, lambda x: layer_norm(x, normalized_shape, None, None, eps))
        if out is not None:
            return out
    if tuple(input.shape[input.dim() - n:]) != tuple(normalized_shape):
        raise RuntimeError("Given normalized_shape=" + str(list(normalized_shape)).replace(" ", "")
                           + ", expected input with shape [*, " + ", ".join(str(d) for d in normalized_shape)
                           + "], but got input of size" + str(list(input.shape)).replace(" ", ""))
    dims = [input.dim() - n + i for i in range(n)]
    mean = input.mean(dims, keepdim=True)
    centered = input - mean
    var = (centered * centered).mean(dims, keepdim=True)
    out = centered * (var + eps).rsqrt()
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    torch._C.rename_grad_fn(out, "NativeLayerNormBackward0")
    return out


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(reduction + " is not a valid value for reduction")


def _weighted_reduce(loss, weight, reduction):
    # PyTorch's weighted mean divides by the total weight, not the count.
    if weight is None:
        return _reduce(loss, reduction)
    weighted = loss * weight
    if reduction == "mean":
        return weighted.sum() / weight.expand_as(weighted).sum()
    return _reduce(weighted, reduction)


def _check_reduction(reduction):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(str(reduction) + " is not a valid value for reduction")


def _legacy_reduction(size_average, reduce):
    # torch.nn._reduction.legacy_get_string: the deprecated flags' reduction.
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return "mean"
    if reduce:
        return "sum"
    return "none"


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    diff = input - target
    out = _weighted_reduce(diff * diff, weight, reduction)
    torch._C.rename_grad_fn(out, "MseLossBackward0")
    return out


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return _weighted_reduce((input - target).abs(), weight, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    z = (input - target).abs()
    loss = torch.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)
    out = _reduce(loss, reduction)
    torch._C.rename_grad_fn(out, "SmoothL1LossBackward0")
    return out


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    input, target = torch._autocast_fp32(input, target)
    _check_reduction(reduction)
    z = (input - target).abs()
    loss = torch.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    if weight is not None:
        loss = loss * weight
    out = _reduce(loss, reduction)
    torch._C.rename_grad_fn(out, "HuberLossBackward0")
    return out


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(str(reduction) + " is not a valid value for reduction")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        # xlogy(target, target) - target * input, with 0 where the target is 0.
        positive = target > 0
        safe = torch.where(positive, target, torch.ones_like(target))
        loss = torch.where(positive, target * safe.log(), torch.zeros_like(target)) - target * input
    if reduction == "batchmean":
        if input.dim() == 0:
            return loss.sum()
        return loss.sum() / input.shape[0]
    return _reduce(loss, reduction)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    (input,) = torch._autocast_fp32(input)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if input.dim() == 1:
        if weight is not None:
            raise NotImplementedError("nll_loss(weight=...) on an unbatched input is not supported yet")
        picked = -input[target]
        return picked if reduction != "sum" else picked.sum()
    if input.dim() != 2:
        raise NotImplementedError("nll_loss on inputs of more than 2 dimensions is not supported yet")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    n = input.shape[0]
    if target.dim() != 1 or target.shape[0] != n:
        raise ValueError("Expected input batch_size (" + str(n) + ") to match target batch_size ("
                         + str(target.shape[0] if target.dim() > 0 else 1) + ").")
    if target.dtype != torch.int64:
        raise RuntimeError("expected target dtype to be Long or Byte, but got " + torch._scalar_type_name(target.dtype))
    # The targets are read once, to name the first bad one; the picking
    # itself reads nothing back (a one-hot selection on the device), so a
    # compiled graph's ops around it stay pending.
    for v in target.tolist():
        if v != ignore_index and (v < 0 or v >= input.shape[1]):
            raise IndexError("Target " + str(v) + " is out of bounds.")
    keep = target != ignore_index
    classes = torch.arange(input.shape[1], device=input.device)
    onehot = target.unsqueeze(1) == classes
    zero = torch.zeros((), dtype=input.dtype, device=input.device)
    picked = torch.where(onehot, input, zero).sum(1)
    scale = keep.to(input.dtype)
    if weight is not None:
        scale = scale * torch.where(onehot, weight, torch.zeros((), dtype=weight.dtype, device=weight.device)).sum(1)
    picked = -picked * scale
    if reduction == "mean":
        out = picked.sum() / scale.sum()
    else:
        out = _reduce(picked, reduction)
    torch._C.rename_grad_fn(out, "NllLossBackward0")
    return out


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    (input,) = torch._autocast_fp32(input)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    class_dim = 1 if input.dim() > 1 else 0
    n_classes = input.shape[class_dim]
    logp = torch.log_softmax(input, class_dim)
    if target.is_floating_point():
        # Class probabilities: ATen's cross_entropy_loss_prob_target.
        if label_smoothing > 0.0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        terms = logp * target
        if weight is not None:
            terms = terms * (weight if class_dim == 0 else weight.reshape([n_classes] + [1] * (input.dim() - 2)))
        loss = -terms.sum(class_dim)
        if reduction == "mean":
            return loss.sum() / (input.numel() // n_classes) if input.dim() > 1 else loss
        return _reduce(loss, reduction)
    loss = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0.0:
        return loss
    # ATen's cross_entropy_loss_label_smoothing: the smoothing term is the mean
    # (or sum) of -sum_c w_c log p_c over the rows that are not ignored.
    keep = target != ignore_index
    if weight is not None:
        smooth = -(logp * weight).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    smooth = smooth * keep.to(smooth.dtype)
    if reduction == "mean":
        if weight is not None:
            safe = torch.where(keep, target, torch.zeros((), dtype=target.dtype, device=target.device))
            smooth = smooth.sum() / (weight[safe] * keep.to(weight.dtype)).sum()
        else:
            smooth = smooth.sum() / keep.sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError("Using a target size (" + str(target.shape) + ") that is different to the input size ("
                         + str(input.shape) + ") is deprecated. Please ensure they have the same size.")
    # ATen clamps each log at -100 so that a probability of exactly 0 or 1
    # gives a finite loss.
    log_p = input.log().clamp(min=-100.0)
    log_q = (1 - input).log().clamp(min=-100.0)
    loss = -(target * log_p + (1 - target) * log_q)
    if input.requires_grad and torch.is_grad_enabled() and not target.requires_grad:
        # ATen's gradient, (x - y) / max(x (1 - x), 1e-12), which is finite
        # where a probability is exactly 0 or 1 (a saturated sigmoid); the
        # composite's is NaN there (an infinite log times a clamp's zero).
        # Same values: the loss plus x * slope minus itself.
        with torch.no_grad():
            slope = (input - target) / ((1 - input) * input).clamp(min=1e-12)
        surrogate = input * slope
        loss = loss.detach() + (surrogate - surrogate.detach())
    if weight is not None:
        loss = loss * weight
    out = _reduce(loss, reduction)
    torch._C.rename_grad_fn(out, "BinaryCrossEntropyBackward0")
    return out


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    input, target = torch._autocast_fp32(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError("Target size (" + str(target.shape) + ") must be the same as input size ("
                         + str(input.shape) + ")")
    if not target.is_floating_point():
        raise RuntimeError("result type " + torch._scalar_type_name(input.dtype)
                           + " can't be cast to the desired output type " + torch._scalar_type_name(target.dtype))
    # ATen: (1 - target) * input - log_weight * logsigmoid(input), with
    # log_weight = (pos_weight - 1) * target + 1 when pos_weight is given.
    # log(sigmoid(x)), whose gradient is 1 - sigmoid(x) everywhere (a form
    # with abs or clamp would give x = 0 a one-sided gradient); far left,
    # where sigmoid underflows, x - exp(x) is exact to float precision.
    log_sigmoid = torch.where(input < -15.0, input - input.clamp(max=-15.0).exp(),
                              input.clamp(min=-15.0).sigmoid().log())
    if pos_weight is not None:
        log_weight = (pos_weight - 1) * target + 1
        loss = (1 - target) * input - log_weight * log_sigmoid
    else:
        loss = (1 - target) * input - log_sigmoid
    if weight is not None:
        loss = loss * weight
    out = _reduce(loss, reduction)
    torch._C.rename_grad_fn(out, "BinaryCrossEntropyWithLogitsBackward0")
    return out


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    dtype = torch._autocast_dtype_for(query, key, value)
    if dtype is not None:
        cast = [t.to(dtype) if torch._autocast_eligible(t) else t for t in (query, key, value, attn_mask)]
        with torch._autocast_suspended():
            return scaled_dot_product_attention(*cast, dropout_p, is_causal, scale, enable_gqa)
    if query.dtype in _HALF and dropout_p == 0.0:
        return _flash_attention_half(query, key, value, attn_mask, is_causal, scale)
    L, S = query.shape[-2], key.shape[-2]
    scale_factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        # PyTorch's math path masks with `ones(L, S).tril().logical_not()`:
        # the same mask from two index vectors, in three kernels, not nine.
        rows = torch.arange(L, device=query.device)
        cols = rows if S == L else torch.arange(S, device=query.device)
        scores = scores.masked_fill(cols.unsqueeze(0) > rows.unsqueeze(1), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    weights = torch.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    out = weights @ value
    if attn_mask is None and dropout_p == 0.0:
        # PyTorch's CPU flash kernel takes this case; it runs on 4-D inputs
        # and unsqueezes a 3-D query, squeezing the result back.
        if query.dim() == 4:
            torch._C.rename_grad_fn(out, "ScaledDotProductFlashAttentionForCpuBackward0")
        elif query.dim() == 3:
            torch._C.rename_grad_fn(out, "SqueezeBackward1")
    return out


def _flash_attention_half(query, key, value, attn_mask, is_causal, scale):
    if not _flash_function:
        # Made on first use: torch.autograd is imported after this module.
        _flash_function.append(type("_FlashAttentionHalf", (torch.autograd.Function,),
                                    {"forward": staticmethod(_flash_forward),
                                     "backward": staticmethod(_flash_backward)}))
    return _flash_function[0].apply(query, key, value, attn_mask, is_causal, scale)


_flash_function = []


def _flash_scores(q, k, attn_mask, is_causal, scale):
    # q @ k^T in float32 times the scale, masked: what both passes start from.
    L, S = q.shape[-2], k.shape[-2]
    scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if is_causal:
        rows = torch.arange(L, device=q.device)
        cols = rows if S == L else torch.arange(S, device=q.device)
        scores = scores.masked_fill(cols.unsqueeze(0) > rows.unsqueeze(1), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask.to(torch.float32)
    return scores


# PyTorch's CPU flash attention on half-precision inputs, whose matrix
# products take half-precision operands and accumulate in float32.
# Forward: scores and softmax in float32; the unnormalised exponentials
# rounded to the input dtype for the product with the values, divided by
# their float32 sum; the output rounded once. Backward: the probabilities
# recomputed in float32 and rounded for dV = P^T dO; dS = P (dO V^T -
# rowsum(dO O)) rounded for dQ = dS K and dK = dS^T Q, scaled; each
# gradient rounded once.

def _flash_forward(ctx, query, key, value, attn_mask, is_causal, scale):
    dtype = query.dtype
    f32 = torch.float32
    q, k, v = query.to(f32), key.to(f32), value.to(f32)
    scores = _flash_scores(q, k, attn_mask, is_causal, scale)
    e = (scores - scores.amax(-1, keepdim=True)).exp()
    total = e.sum(-1, keepdim=True)
    out = ((e.to(dtype).to(f32) @ v) / total).to(dtype)
    ctx.save_for_backward(query, key, value, out)
    ctx.meta = (attn_mask, is_causal, scale, scores.amax(-1, keepdim=True) + total.log())
    return out


def _flash_backward(ctx, grad_out):
    query, key, value, out = ctx.saved_tensors
    attn_mask, is_causal, scale, lse = ctx.meta
    dtype, f32 = query.dtype, torch.float32
    q, k, v = query.to(f32), key.to(f32), value.to(f32)
    g = grad_out.to(dtype).to(f32)
    factor = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    p = (_flash_scores(q, k, attn_mask, is_causal, scale) - lse).exp()
    grad_v = p.to(dtype).to(f32).transpose(-2, -1) @ g
    dsum = (g * out.to(f32)).sum(-1, keepdim=True)
    ds = (p * (g @ v.transpose(-2, -1) - dsum)).to(dtype).to(f32)
    grad_q = (ds @ k) * factor
    grad_k = (ds.transpose(-2, -1) @ q) * factor
    return grad_q.to(dtype), grad_k.to(dtype), grad_v.to(dtype), None, None, None


def one_hot(input, num_classes=-1):
    tensor = input
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() and tensor.min().item() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = tensor.max().item() + 1 if tensor.numel() else 0
    elif tensor.numel() and tensor.max().item() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    classes = torch.arange(num_classes, device=tensor.device)
    return (tensor.unsqueeze(-1) == classes).long()


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = torch.norm(input, p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # As ATen: each input divided by its norm (clamped at eps), then the dot product.
    n1 = torch.norm(x1, 2, dim, keepdim=True).clamp_min(eps)
    n2 = torch.norm(x2, 2, dim, keepdim=True).clamp_min(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    return torch.norm(x1 - x2 + eps, p, -1, keepdim)
