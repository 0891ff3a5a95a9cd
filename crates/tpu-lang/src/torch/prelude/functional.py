# torch.nn.functional, built from torch ops so that autograd covers it.
import math
import torch


def relu(input, inplace=False):
    return input.relu()


def gelu(input, approximate="none"):
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (input + 0.044715 * input * input * input)
        out = 0.5 * input * (1.0 + inner.tanh())
    else:
        out = input * 0.5 * (1.0 + (input * 0.7071067811865476).erf())
    torch._C.rename_grad_fn(out, "GeluBackward0")
    return out


def silu(input, inplace=False):
    out = input * input.sigmoid()
    torch._C.rename_grad_fn(out, "SiluBackward0")
    return out


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
    if p == 1.0:
        return input * 0.0
    keep = torch.rand(input.shape, device=input.device) >= p
    return input * keep.to(input.dtype) / (1.0 - p)


def linear(input, weight, bias=None):
    if bias is not None and input.dim() == 2 and weight.dim() == 2 and input.shape[1] != weight.shape[1]:
        # PyTorch runs a 2-D linear with bias as one addmm, and says so.
        raise RuntimeError("addmm: mat1 and mat2 shapes cannot be multiplied (" + str(input.shape[0]) + "x"
                           + str(input.shape[1]) + " and " + str(weight.shape[1]) + "x" + str(weight.shape[0]) + ")")
    out = input @ weight.t()
    if bias is not None:
        out = out + bias
    return out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False):
    if max_norm is not None:
        raise NotImplementedError("embedding(max_norm=...) is not supported yet")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding(scale_grad_by_freq=True, sparse=True) is not supported yet")
    return weight[input]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    n = len(normalized_shape)
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


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    diff = input - target
    out = _weighted_reduce(diff * diff, weight, reduction)
    torch._C.rename_grad_fn(out, "MseLossBackward0")
    return out


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    return _weighted_reduce((input - target).abs(), weight, reduction)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    if weight is not None:
        raise NotImplementedError("nll_loss(weight=...) is not supported yet")
    if input.dim() == 1:
        picked = -input[target]
        return picked if reduction != "sum" else picked.sum()
    if input.dim() != 2:
        raise NotImplementedError("nll_loss on inputs of more than 2 dimensions is not supported yet")
    n = input.shape[0]
    if target.dim() != 1 or target.shape[0] != n:
        raise ValueError("Expected input batch_size (" + str(n) + ") to match target batch_size ("
                         + str(target.shape[0] if target.dim() > 0 else 1) + ").")
    rows = torch.arange(n, device=input.device)
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros((), dtype=target.dtype, device=target.device))
    picked = -input[rows, safe] * keep.to(input.dtype)
    if reduction == "mean":
        out = picked.sum() / keep.sum()
    else:
        out = _reduce(picked, reduction)
    torch._C.rename_grad_fn(out, "NllLossBackward0")
    return out


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    if label_smoothing != 0.0:
        raise NotImplementedError("cross_entropy(label_smoothing=...) is not supported yet")
    if target.is_floating_point():
        logp = torch.log_softmax(input, 1 if input.dim() > 1 else 0)
        return _reduce(-(target * logp).sum(1 if input.dim() > 1 else 0), reduction)
    return nll_loss(torch.log_softmax(input, 1 if input.dim() > 1 else 0), target, weight,
                    ignore_index, reduction)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    L, S = query.shape[-2], key.shape[-2]
    scale_factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = query @ key.transpose(-2, -1) * scale_factor
    if is_causal:
        causal = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
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
