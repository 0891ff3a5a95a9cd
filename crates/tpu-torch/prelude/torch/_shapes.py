# Layout and shape functions composed from the view primitives: strides,
# movedim, repeat and tile, flip and roll, unfold, the h/v/d stacks and splits,
# scatter and index_add (over the `put` primitive), diff and the running
# products, and dtype queries (result_type, promote_types). Part of the `torch`
# module's body (see __init__.py; one namespace).

# Views and joins.

def reshape(input, shape):
    return _C.reshape(input, shape)


def permute(input, dims):
    return _C.permute(input, dims)


def transpose(input, dim0, dim1):
    return _C.transpose(input, dim0, dim1)


def t(input):
    return input.t()


def unsqueeze(input, dim):
    return _C.unsqueeze(input, dim)


def squeeze(input, dim=None):
    return _C.squeeze(input, dim)


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


def clone(input):
    return _C.clone(input)


def cat(tensors, dim=0):
    return _C.cat(tensors, dim)


concat = _alias(cat, "concat")
concatenate = _alias(cat, "concatenate")


def stack(tensors, dim=0):
    tensors = list(tensors)
    if _py_len(tensors) == 0:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for i, x in enumerate(tensors):
        if x.shape != first:
            raise RuntimeError("stack expects each tensor to be equal size, but got "
                               + str(list(first)) + " at entry 0 and "
                               + str(list(x.shape)) + " at entry " + str(i))
    d = dim % (tensors[0].dim() + 1)
    out = _C.cat([x.unsqueeze(d) for x in tensors], d)
    _C.rename_grad_fn(out, "StackBackward0")
    return out


def split(tensor, split_size_or_sections, dim=0):
    n = tensor.shape[dim]
    if _py_isinstance(split_size_or_sections, _py_int):
        size = split_size_or_sections
        sizes = []
        at = 0
        while at < n:
            sizes.append(_py_min(size, n - at))
            at += size
        if n == 0:
            sizes = [0]
    else:
        sizes = list(split_size_or_sections)
        if _py_sum(sizes) != n:
            raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to " + str(n)
                               + " (input tensor's size at dimension " + str(dim) + "), but got split_sizes="
                               + str(sizes))
    grad_fn = "SplitBackward0" if _py_isinstance(split_size_or_sections, _py_int) else "SplitWithSizesBackward0"
    out = []
    at = 0
    for s in sizes:
        out.append(_named(_C.slice(tensor, dim, at, at + s, 1), grad_fn))
        at += s
    return tuple(out)


def chunk(input, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    n = input.shape[dim]
    size = (n + chunks - 1) // chunks
    return split(input, _py_max(size, 1), dim)


def unbind(input, dim=0):
    return tuple(_named(_C.select(input, dim, i), "UnbindBackward0") for i in _py_range(input.shape[dim]))


def index_select(input, dim, index):
    sl = [slice(None)] * input.dim()
    sl[dim] = index
    try:
        # The indexing reads the index and checks its bounds on the host, so
        # indices in bounds cost no reads of their own.
        picked = input[tuple(sl)]
    except IndexError:
        n = input.shape[dim]
        if dim % input.dim() == 0:
            # ATen checks dim 0 itself; other dims go through a kernel with its own wording.
            raise IndexError("index out of range in self") from None
        lo, hi = index.min().item(), index.max().item()
        raise RuntimeError("INDICES element is out of DATA bounds, id=" + str(hi if hi >= n else lo)
                           + " axis_dim=" + str(n)) from None
    return _named(picked, "IndexSelectBackward0")


def gather(input, dim, index, sparse_grad=False):
    if sparse_grad:
        raise NotImplementedError("gather(sparse_grad=True) is not supported: gradients are dense")
    # out[i][j] = input[index[i][j]][j] for dim 0 (and so on), via flat positions.
    d = dim % input.dim()
    _check_index(input, d, index, "gather")
    coords = []
    for k in _py_range(input.dim()):
        if k == d:
            coords.append(index)
        else:
            shape = [1] * input.dim()
            shape[k] = index.shape[k]
            coords.append(arange(index.shape[k], device=index.device).reshape(shape).expand(index.shape))
    return _named(input[tuple(coords)], "GatherBackward0")


def _stride(self, dim=None):
    strides = _C.stride(self)
    if dim is None:
        return strides
    return strides[dim]


def _type(self, dtype=None, non_blocking=False):
    if dtype is None:
        return "torch." + _scalar_type_name(self.dtype) + "Tensor"
    return self.to(dtype)


def movedim(input, source, destination):
    n = input.dim()
    src = [s % n for s in _dims(source)]
    dst = [d % n for d in _dims(destination)]
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = [i for i in _py_range(n) if i not in src]
    for i in _py_range(n):
        if order[i] is None:
            order[i] = rest.pop(0)
    return input.permute(order)


moveaxis = _alias(movedim, "moveaxis")


def swapaxes(input, axis0, axis1):
    return input.transpose(axis0, axis1)




def swapdims(input, dim0, dim1):
    return swapaxes(input, dim0, dim1)


def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


def select(input, dim, index):
    if input.dim() > 0:
        n = input.shape[dim]
        if index < -n or index >= n:
            raise IndexError("select(): index " + str(index) + " out of range for tensor of size "
                             + str(list(input.shape)) + " at dimension " + str(dim % input.dim()))
    return _C.select(input, dim, index)


def _repeat(self, *sizes):
    sizes = list(_sizes(sizes, "repeat"))
    if _py_len(sizes) < self.dim():
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    shape = [1] * (_py_len(sizes) - self.dim()) + list(self.shape)
    spread, grown, final = [], [], []
    for r, d in zip(sizes, shape):
        spread += [1, d]
        grown += [r, d]
        final.append(r * d)
    return _named(self.reshape(spread).expand(grown).reshape(final), "RepeatBackward0")


def tile(input, dims):
    dims = list(dims)
    if _py_len(dims) < input.dim():
        dims = [1] * (input.dim() - _py_len(dims)) + dims
    return _repeat(input, dims)


def repeat_interleave(input, repeats=None, dim=None, output_size=None):
    if repeats is None:
        # torch.repeat_interleave(repeats): each index repeated by its count.
        return repeat_interleave(arange(input.shape[0], device=input.device), input)
    x = input.flatten() if dim is None else input
    d = 0 if dim is None else dim % x.dim()
    if _py_isinstance(repeats, Tensor) and repeats.numel() == 1:
        repeats = repeats.item()
    if _py_isinstance(repeats, _py_int):
        shape = list(x.shape)
        grown = shape[:d + 1] + [repeats] + shape[d + 1:]
        return x.unsqueeze(d + 1).expand(grown).flatten(d, d + 1)
    index = []
    for i, r in enumerate(repeats.tolist()):
        index += [i] * r
    return x.index_select(d, tensor(index, dtype=int64, device=x.device))


def flip(input, dims):
    out = input
    for d in _dims(dims):
        n = input.shape[d]
        out = out.index_select(d, arange(n - 1, -1, -1, device=input.device))
    return _named(out, "FlipBackward0")


def fliplr(input):
    return flip(input, [1])


def flipud(input):
    return flip(input, [0])


def roll(input, shifts, dims=()):
    if dims is None or dims == () or dims == []:
        return roll(input.flatten(), shifts, 0).reshape(input.shape)
    # Always a new tensor, as PyTorch's: a roll by 0 (or along a dimension of
    # one) is a copy, never the input itself, which a caller may then write.
    out = input
    for s, d in zip(_dims(shifts), _dims(dims)):
        n = input.shape[d]
        s = s % n if n else 0
        if s:
            out = cat([out.narrow(d, n - s, s), out.narrow(d, 0, n - s)], d)
    if out is input:
        out = input.clone()
    return _named(out, "RollBackward0")


def _unfold(self, dimension, size, step):
    # A view, as in PyTorch: `dimension` counts the windows, a new last
    # dimension runs along each.
    return _C.unfold(self, dimension, size, step)


def _each(tensors, one):
    # atleast_Nd(x) is a tensor; atleast_Nd(x, y) and atleast_Nd([x, y]) tuples.
    if _py_len(tensors) == 1 and not _py_isinstance(tensors[0], Tensor):
        tensors = tensors[0]
    elif _py_len(tensors) == 1:
        return one(tensors[0])
    return tuple(one(t) for t in tensors)


def atleast_1d(*tensors):
    return _each(tensors, _atleast_1d)


def atleast_2d(*tensors):
    return _each(tensors, _atleast_2d)


def atleast_3d(*tensors):
    return _each(tensors, _atleast_3d)


def _atleast_1d(input):
    return input.reshape(1) if input.dim() == 0 else input


def _atleast_2d(input):
    if input.dim() >= 2:
        return input
    return _atleast_1d(input).unsqueeze(0)


def _atleast_3d(input):
    if input.dim() >= 3:
        return input
    if input.dim() == 2:
        return input.unsqueeze(-1)
    return _atleast_1d(input).reshape(1, -1, 1)


def hstack(tensors):
    tensors = [atleast_1d(t) for t in tensors]
    return cat(tensors, 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors):
    return cat([atleast_2d(t) for t in tensors], 0)


row_stack = _alias(vstack, "row_stack")


def dstack(tensors):
    return cat([atleast_3d(t) for t in tensors], 2)


def column_stack(tensors):
    return cat([t.reshape(-1, 1) if t.dim() <= 1 else t for t in tensors], 1)


def tensor_split(input, indices_or_sections, dim=0):
    n = input.shape[dim]
    if _py_isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    if _py_isinstance(indices_or_sections, _py_int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError("number of sections must be larger than 0, got " + str(sections))
        q, r = n // sections, n % sections
        bounds = []
        at = 0
        for i in _py_range(sections - 1):
            at += q + (1 if i < r else 0)
            bounds.append(at)
    else:
        bounds = list(indices_or_sections)
    out = []
    start = 0
    for b in bounds + [n]:
        b = _py_max(_py_min(b, n), start)
        out.append(input.narrow(dim, start, b - start))
        start = b
    return tuple(out)


def hsplit(input, indices_or_sections):
    dim = 1 if input.dim() >= 2 else 0
    return _split_evenly(input, indices_or_sections, dim, "torch.hsplit")


def vsplit(input, indices_or_sections):
    return _split_evenly(input, indices_or_sections, 0, "torch.vsplit")


def _split_evenly(input, sections, dim, name):
    if _py_isinstance(sections, _py_int) and input.shape[dim] % sections != 0:
        raise RuntimeError(name + " attempted to split along dimension " + str(dim)
                           + ", but the size of the dimension " + str(input.shape[dim])
                           + " is not divisible by the split_size " + str(sections) + "!")
    return tensor_split(input, sections, dim)


# Scatter and index_add: positions in the input read as a dense row-major
# tensor, then `_C.put` writes (or adds) the values there.

def _flat_positions(shape, dim, index, along):
    # The flat position in a tensor of `shape` of each element of a grid of
    # `along`'s shape, whose coordinate along `dim` is `index` (broadcast).
    n = _py_len(shape)
    flat = None
    stride = 1
    for k in _py_range(n - 1, -1, -1):
        if k == dim:
            coord = index
        else:
            view = [1] * n
            view[k] = along[k]
            coord = arange(along[k], device=index.device).reshape(view)
        term = coord * stride
        flat = term if flat is None else flat + term
        stride *= shape[k]
    return flat.expand(along) if flat.shape != tuple(along) else flat


def _check_index(input, dim, index, name):
    if index.numel() == 0:
        return
    n = input.shape[dim]
    lo, hi = index.min().item(), index.max().item()
    if lo < 0 or hi >= n:
        bad = hi if hi >= n else lo
        raise RuntimeError("index " + str(bad) + " is out of bounds for dimension " + str(dim)
                           + " with size " + str(n))


def scatter(input, dim, index, src=None, value=None, reduce=None):
    if src is None:
        src = value
    d = dim % _py_max(input.dim(), 1)
    _check_index(input, d, index, "scatter")
    if _py_isinstance(src, Tensor) and src.shape != index.shape:
        src = src[tuple(slice(0, s) for s in index.shape)]
    positions = _flat_positions(list(input.shape), d, index, list(index.shape))
    if reduce is None:
        return _C.put(input, positions, src, False)
    if reduce == "add":
        return _C.put(input, positions, src, True)
    raise NotImplementedError("scatter(reduce='" + str(reduce) + "') is not supported yet")


def scatter_add(input, dim, index, src):
    return scatter(input, dim, index, src, reduce="add")


def index_add(input, dim, index, source, alpha=1):
    d = dim % _py_max(input.dim(), 1)
    _check_index(input, d, index, "index_add")
    along = list(input.shape)
    if input.dim():
        along[d] = index.numel()
        view = [1] * input.dim()
        view[d] = index.numel()
        index = index.reshape(view)
    positions = _flat_positions(list(input.shape), d, index, along)
    return _C.put(input, positions, source * alpha if alpha != 1 else source, True)


def index_fill(input, dim, index, value):
    d = dim % _py_max(input.dim(), 1)
    along = list(input.shape)
    along[d] = index.numel()
    view = [1] * input.dim()
    view[d] = index.numel()
    positions = _flat_positions(list(input.shape), d, index.reshape(view), along)
    return _C.put(input, positions, value, False)


def masked_select(input, mask):
    return input.masked_select(mask)


def nonzero(input, as_tuple=False):
    coords = _C.nonzero(input)
    if as_tuple:
        if input.dim() == 0:
            return (coords.reshape(-1),)
        return tuple(coords.unbind(1))
    return coords


def clamp_min(input, min):
    return _named(clamp(input, min=min), "ClampMinBackward0")


def clamp_max(input, max):
    return _named(clamp(input, max=max), "ClampMaxBackward0")


def diff(input, n=1, dim=-1, prepend=None, append=None):
    parts = [p for p in [prepend, input, append] if p is not None]
    x = cat(parts, dim) if _py_len(parts) > 1 else input
    for _ in _py_range(n):
        m = x.shape[dim]
        later, earlier = x.narrow(dim, 1, m - 1), x.narrow(dim, 0, m - 1)
        x = (later != earlier) if x.dtype == bool else later - earlier
    return x


def _running(input, dim, fill, reduce):
    # out[i] = reduce(x[0..i]) along `dim`, as one reduction over an n x n window.
    d = dim % _py_max(input.dim(), 1)
    x = input.transpose(d, -1)
    n = x.shape[-1]
    pos = arange(n, device=input.device)
    window = where(pos.unsqueeze(-1) >= pos, x.unsqueeze(-2), full((), fill, dtype=x.dtype, device=x.device))
    return reduce(window).transpose(d, -1)


def cumprod(input, dim, dtype=None):
    x = input if dtype is None else input.to(dtype)
    if x.dtype == bool:
        x = x.long()
    return _named(_running(x, dim, 1, lambda w: w.prod(-1)), "CumprodBackward0")


def logcumsumexp(input, dim):
    return _running(input, dim, _py_float("-inf"), lambda w: logsumexp(w, -1))


def std_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    return (std(input, dim, unbiased=unbiased, keepdim=keepdim, correction=correction),
            _mean_for(input, dim, keepdim))


def var_mean(input, dim=None, unbiased=None, keepdim=False, correction=None):
    return (var(input, dim, unbiased=unbiased, keepdim=keepdim, correction=correction),
            _mean_for(input, dim, keepdim))


def _mean_for(input, dim, keepdim):
    if _py_isinstance(dim, _py_bool) or dim is None:
        return input.mean()
    return input.mean(dim, keepdim)


def _tensor_kind(x):
    # A stand-in with `x`'s dtype and its promotion category (dimensioned, 0-d
    # or Python number), so that `+` decides the result type.
    if _py_isinstance(x, Tensor):
        return zeros((0,) if x.dim() else (), dtype=x.dtype)
    return x


def result_type(tensor, other):
    a, b = _tensor_kind(tensor), _tensor_kind(other)
    if not _py_isinstance(a, Tensor):
        a, b = b, a
    if a.dtype == bool and (not _py_isinstance(b, Tensor) or b.dtype == bool) and not (
            _py_isinstance(b, _py_float) or _py_isinstance(b, _py_int) and not _py_isinstance(b, _py_bool)):
        return bool
    return (a.long() * 0 + b).dtype if a.dtype == bool else (a + b).dtype


def promote_types(type1, type2):
    if type1 == bool and type2 == bool:
        return bool
    return result_type(zeros(0, dtype=type1), zeros(0, dtype=type2))


def can_cast(from_, to):
    def kind(d):
        if d == bool:
            return 0
        return 2 if d == float32 or d == float64 or d == bfloat16 or d == float16 else 1
    return kind(from_) <= kind(to)


Tensor.stride = _stride
Tensor.type = _type
Tensor.ndimension = lambda self: self.dim()
Tensor.movedim = movedim
Tensor.moveaxis = movedim
Tensor.swapaxes = swapaxes
Tensor.swapdims = swapdims
Tensor.select = select
Tensor.repeat = _repeat
Tensor.tile = tile
Tensor.repeat_interleave = repeat_interleave
Tensor.flip = flip
Tensor.fliplr = fliplr
Tensor.flipud = flipud
Tensor.roll = roll
Tensor.unfold = _unfold
Tensor.tensor_split = tensor_split
Tensor.hsplit = hsplit
Tensor.vsplit = vsplit
Tensor.scatter = scatter
Tensor.scatter_add = scatter_add
Tensor.index_add = index_add
Tensor.index_fill = index_fill
Tensor.clamp_min = clamp_min
Tensor.clamp_max = clamp_max
Tensor.diff = diff
Tensor.cumprod = cumprod
Tensor.logcumsumexp = logcumsumexp
for _name in ["scatter", "scatter_add", "index_add", "index_fill", "cumprod"]:
    setattr(Tensor, _name + "_", _inplace(_name))
