# Sorting and what is built on it: sort, argsort, topk, kthvalue, median, mode,
# quantile, unique, bincount, histc, cummax/cummin. Part of the `torch` module's
# body (see __init__.py; one namespace).
#
# There is no sort primitive: an element's place in the sorted order is the
# number of elements that come before it (smaller, or equal and earlier, which
# makes every sort stable, as PyTorch's CPU sort is), computed by comparing all
# pairs along the axis. That costs n * n comparisons per row, which is fine for
# the row lengths programs sort here; values are then gathered, so they carry
# gradients.


def _sort_indices(input, dim, descending):
    if input.dim() == 0:
        return zeros((), dtype=int64, device=input.device)
    d = dim % input.dim()
    x = input.transpose(d, -1)
    if x.dtype == bool:
        x = x.long()
    n = x.shape[-1]
    a = x.unsqueeze(-1)
    b = x.unsqueeze(-2)
    first = (b > a) if descending else (b < a)
    tie = b == a
    if x.is_floating_point():
        # NaN sorts above every number, as in PyTorch.
        na = a != a
        nb = b != b
        first = first | ((nb & ~na) if descending else (na & ~nb))
        tie = tie | (na & nb)
    pos = arange(n, device=input.device)
    earlier = pos.unsqueeze(-1) > pos
    rank = (first | (tie & earlier)).long().sum(-1)
    onehot = rank.unsqueeze(-2) == pos.unsqueeze(-1)
    order = (onehot.long() * pos).sum(-1)
    return order.transpose(d, -1)


def sort(input, dim=-1, descending=False, stable=False):
    indices = _sort_indices(input, dim, descending)
    values = input if input.dim() == 0 else gather(input, dim, indices)
    return _ReturnType("sort", values, indices)


def argsort(input, dim=-1, descending=False, stable=False):
    return _sort_indices(input, dim, descending)


def msort(input):
    return sort(input, 0).values


def topk(input, k, dim=-1, largest=True, sorted=True):
    n = input.shape[dim] if input.dim() > 0 else 1
    if k < 0 or k > n:
        raise RuntimeError("selected index k out of range")
    indices = _sort_indices(input, dim, largest)
    indices = indices.narrow(dim, 0, k) if input.dim() > 0 else indices
    values = input if input.dim() == 0 else gather(input, dim, indices)
    return _ReturnType("topk", values, indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    n = input.shape[dim] if input.dim() > 0 else 1
    if k < 1 or k > n:
        raise RuntimeError("kthvalue(): selected number k out of range for dimension " + str(dim))
    s = sort(input, dim)
    values = s.values.narrow(dim, k - 1, 1)
    indices = s.indices.narrow(dim, k - 1, 1)
    if not keepdim:
        values = values.squeeze(dim)
        indices = indices.squeeze(dim)
    return _ReturnType("kthvalue", values, indices)


def median(input, dim=None, keepdim=False):
    if dim is None:
        flat = input.flatten()
        return sort(flat).values[(flat.numel() - 1) // 2]
    n = input.shape[dim]
    out = kthvalue(input, (n - 1) // 2 + 1, dim, keepdim)
    return _ReturnType("median", out.values, out.indices)


def nanmedian(input, dim=None, keepdim=False):
    if dim is None:
        flat = input.flatten()
        kept = flat[~isnan(flat)]
        if kept.numel() == 0:
            return full((), _py_float("nan"), dtype=input.dtype, device=input.device)
        return sort(kept).values[(kept.numel() - 1) // 2]
    raise NotImplementedError("torch.nanmedian(input, dim) is not supported yet")


def mode(input, dim=-1, keepdim=False):
    # The most frequent value (the smallest among equally frequent ones) and the
    # index of its last occurrence, as PyTorch's CPU kernel returns.
    if input.dim() == 0:
        return _ReturnType("mode", input.clone(), zeros((), dtype=int64, device=input.device))
    d = dim % input.dim()
    x = input.transpose(d, -1)
    same = x.unsqueeze(-1) == x.unsqueeze(-2)
    counts = same.long().sum(-1)
    best = counts.amax(-1, keepdim=True)
    is_best = counts == best
    values = where(is_best, x, x.amax(-1, keepdim=True)).amin(-1, keepdim=True)
    n = x.shape[-1]
    pos = arange(n, device=input.device)
    last = where(x == values, pos, -1).amax(-1, keepdim=True)
    values = values.transpose(d, -1)
    last = last.transpose(d, -1)
    if not keepdim:
        values = values.squeeze(d)
        last = last.squeeze(d)
    return _ReturnType("mode", values, last)


def quantile(input, q, dim=None, keepdim=False, interpolation="linear"):
    if interpolation not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got "
                           + str(interpolation))
    scalar_q = not _py_isinstance(q, Tensor)
    qs = tensor([q] if scalar_q else q.tolist(), dtype=input.dtype, device=input.device)
    if qs.dim() == 0:
        qs = qs.unsqueeze(0)
        scalar_q = True
    x = input.flatten() if dim is None else input
    d = 0 if dim is None else dim % input.dim()
    s = sort(x, d).values.transpose(d, -1)
    n = s.shape[-1]
    outs = []
    for p in qs.tolist():
        if p < 0 or p > 1:
            raise RuntimeError("quantile() q values must be in the range [0, 1]")
        rank = p * (n - 1)
        lo = _py_int(rank // 1)
        hi = _py_min(lo + 1, n - 1)
        frac_part = rank - lo
        if interpolation == "lower":
            v = s[..., lo]
        elif interpolation == "higher":
            v = s[..., lo if frac_part == 0 else hi]
        elif interpolation == "nearest":
            v = s[..., _py_int(_py_round(rank))]
        elif interpolation == "midpoint":
            v = s[..., lo] if frac_part == 0 else (s[..., lo] + s[..., hi]) / 2
        else:
            v = lerp(s[..., lo], s[..., hi], frac_part)
        if keepdim:
            if dim is None:
                v = v.reshape([1] * input.dim())
            else:
                v = v.unsqueeze(d)
        outs.append(v)
    if scalar_q:
        return outs[0]
    return stack(outs)


def nanquantile(input, q, dim=None, keepdim=False, interpolation="linear"):
    if dim is not None:
        raise NotImplementedError("torch.nanquantile(input, q, dim) is not supported yet")
    flat = input.flatten()
    return quantile(flat[~isnan(flat)], q, None, keepdim, interpolation)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    # A DTensor has no sharding rule for it: PyTorch's error names its op.
    dispatch = _py_getattr(_py_type(input), "__tpu_dispatch__", None)
    if dispatch is not None:
        dispatch("_unique2", [input])
    if dim is not None:
        # Unique slices along `dim`: rows compared whole, ordered lexicographically.
        d = dim % input.dim()
        rows = input.movedim(d, 0).flatten(1)
        n = rows.shape[0]
        key = zeros(n, dtype=int64, device=input.device)
        for c in _py_range(rows.shape[1]):
            key = key * n + _rank_dense(rows[:, c])
        return _unique_flat(key, input.movedim(d, 0), return_inverse, return_counts, d)
    return _unique_flat(input.flatten(), None, return_inverse, return_counts, None, input.shape)


def _rank_dense(column):
    # Each value's rank among the distinct values of `column` (0, 1, ...).
    smaller = (column.unsqueeze(0) < column.unsqueeze(1)).long()
    distinct_before = (smaller * _first_of_value(column).long()).sum(1)
    return distinct_before


def _first_of_value(column):
    n = column.shape[0]
    pos = arange(n, device=column.device)
    same_earlier = (column.unsqueeze(1) == column.unsqueeze(0)) & (pos.unsqueeze(0) < pos.unsqueeze(1))
    return ~same_earlier.any(1)


def _unique_flat(flat, slices, return_inverse, return_counts, d, shape=None):
    s = sort(flat)
    n = flat.numel()
    if n == 0:
        starts = zeros(0, dtype=bool, device=flat.device)
    else:
        starts = cat([ones(1, dtype=bool, device=flat.device), s.values[1:] != s.values[:-1]])
    if slices is None:
        values = s.values[starts]
    else:
        values = slices[s.indices[starts]].movedim(0, d)
    out = [values]
    if return_inverse:
        group = starts.long().cumsum(0) - 1
        inverse = zeros(n, dtype=int64, device=flat.device).scatter(0, s.indices, group)
        out.append(inverse.reshape(shape) if shape is not None else inverse)
    if return_counts:
        first = nonzero(starts).flatten()
        ends = cat([first[1:], tensor([n], device=flat.device)])
        out.append(ends - first)
    if _py_len(out) == 1:
        return out[0]
    return tuple(out)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        raise NotImplementedError("torch.unique_consecutive(dim=...) is not supported yet")
    flat = input.flatten()
    n = flat.numel()
    starts = cat([ones(1, dtype=bool, device=flat.device), flat[1:] != flat[:-1]]) if n else zeros(0, dtype=bool)
    out = [flat[starts]]
    if return_inverse:
        out.append((starts.long().cumsum(0) - 1).reshape(input.shape))
    if return_counts:
        first = nonzero(starts).flatten()
        out.append(cat([first[1:], tensor([n], device=flat.device)]) - first)
    if _py_len(out) == 1:
        return out[0]
    return tuple(out)


def bincount(input, weights=None, minlength=0):
    if input.dim() != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.is_floating_point() or input.dtype == bool:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if input.numel() and input.min().item() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    size = _py_max(minlength, input.max().item() + 1 if input.numel() else 0)
    if weights is None:
        return zeros(size, dtype=int64, device=input.device).index_add_(0, input, ones_like(input))
    dtype = float64 if weights.dtype == float64 else (weights.dtype if weights.is_floating_point() else float64)
    return zeros(size, dtype=dtype, device=input.device).index_add_(0, input, weights.to(dtype))


def histc(input, bins=100, min=0, max=0):
    lo, hi = _py_float(min), _py_float(max)
    if lo == hi and input.numel():
        lo, hi = input.min().item(), input.max().item()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    x = input.flatten()
    inside = (x >= lo) & (x <= hi)
    x = x[inside]
    b = ((x - lo) * (bins / (hi - lo))).floor().long().clamp(0, bins - 1)
    counts = zeros(bins, dtype=input.dtype, device=input.device)
    return counts.index_add_(0, b, ones_like(x))


def _cumulative_extremum(input, dim, largest, name):
    if input.dim() == 0:
        return _ReturnType(name, input.clone(), zeros((), dtype=int64, device=input.device))
    d = dim % input.dim()
    x = input.transpose(d, -1)
    n = x.shape[-1]
    pos = arange(n, device=input.device)
    upto = pos.unsqueeze(-1) >= pos
    # Row i of the window holds x[j] for j <= i; later ones are masked out.
    fill = _py_float("-inf") if largest else _py_float("inf")
    if not x.is_floating_point():
        info = iinfo(x.dtype)
        fill = info.min if largest else info.max
    window = where(upto, x.unsqueeze(-2), full((), fill, dtype=x.dtype, device=input.device))
    values = window.amax(-1) if largest else window.amin(-1)
    # PyTorch's index is the last position holding the running extremum.
    hit = upto & (x.unsqueeze(-2) == values.unsqueeze(-1))
    indices = where(hit, pos, -1).amax(-1)
    return _ReturnType(name, values.transpose(d, -1), indices.transpose(d, -1))


def cummax(input, dim):
    return _cumulative_extremum(input, dim, True, "cummax")


def cummin(input, dim):
    return _cumulative_extremum(input, dim, False, "cummin")


def aminmax(input, dim=None, keepdim=False):
    return _MinMax(input.amin(dim, keepdim), input.amax(dim, keepdim))


class _MinMax:
    # torch.return_types.aminmax: (min, max) with names.
    def __init__(self, min, max):
        self.min = min
        self.max = max

    def __iter__(self):
        return iter((self.min, self.max))

    def __getitem__(self, i):
        return (self.min, self.max)[i]

    def __len__(self):
        return 2

    def __repr__(self):
        return "torch.return_types.aminmax(\nmin=" + repr(self.min) + ",\nmax=" + repr(self.max) + ")"


Tensor.sort = sort
Tensor.argsort = argsort
Tensor.msort = msort
Tensor.topk = topk
Tensor.kthvalue = kthvalue
Tensor.median = median
Tensor.nanmedian = nanmedian
Tensor.mode = mode
Tensor.quantile = quantile
Tensor.nanquantile = nanquantile
Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive
Tensor.bincount = bincount
Tensor.histc = histc
Tensor.cummax = cummax
Tensor.cummin = cummin
Tensor.aminmax = aminmax
