# Further element-wise, indexing and shape functions of `torch` and their
# Tensor forms (part of the `torch` module's body, after _forms.py, in the
# same namespace): PyTorch's aliases, each a function of its own name, and
# ops composed from the runtime's, as ATen composes them.
import itertools as _itertools
import math as _math
import warnings as _warnings

divide = _alias(div, "divide")
multiply = _alias(mul, "multiply")
subtract = _alias(sub, "subtract")
greater = _alias(gt, "greater")
greater_equal = _alias(ge, "greater_equal")
less = _alias(lt, "less")
less_equal = _alias(le, "less_equal")
not_equal = _alias(ne, "not_equal")


# torch's numeric constants, as Python floats (and `newaxis`, None).
e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None


def absolute(input):
    return input.abs()


def negative(input):
    return input.neg()


def negative_(input):
    return input.neg_()


def positive(input):
    if input.dtype == bool:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return input


def deg2rad(input):
    return input * 0.017453292519943295


def rad2deg(input):
    return input * 57.29577951308232


def sinc(input):
    x = input if input.is_floating_point() else input.to(get_default_dtype())
    scaled = x * _math.pi
    safe = where(x == 0, ones_like(x), scaled)
    return where(x == 0, ones_like(x), safe.sin() / safe)


def ldexp(input, other):
    return input * pow(2.0, other)


def heaviside(input, values):
    if input.dtype != values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    return where(input == 0, values, (input > 0).to(input.dtype))


def fmax(input, other):
    return where(input.isnan(), other, where(other.isnan(), input, maximum(input, other)))


def fmin(input, other):
    return where(input.isnan(), other, where(other.isnan(), input, minimum(input, other)))


def gcd(input, other):
    # Euclid's algorithm on whole tensors, until every remainder is zero.
    if input.is_floating_point() or other.is_floating_point():
        raise RuntimeError("\"gcd_cpu\" not implemented for '" + _scalar_type_name(result_type(input, other)) + "'")
    a, b = broadcast_tensors(input.abs(), other.abs())
    zero = zeros_like(b)
    while (b != 0).any().item():
        step = b != 0
        r = where(step, a.remainder(where(step, b, ones_like(b))), zero)
        a = where(step, b, a)
        b = r
    return a


def lcm(input, other):
    g = gcd(input, other)
    safe = where(g == 0, ones_like(g), g)
    return where(g == 0, zeros_like(g), (input // safe * other).abs())


def ravel(input):
    return input.reshape(-1)


def rot90(input, k=1, dims=[0, 1]):
    if len(dims) != 2:
        raise RuntimeError("expected total rotation dims == 2, but got dims = " + str(len(dims)))
    k = k % 4
    if k == 1:
        return input.flip(dims[1]).transpose(dims[0], dims[1])
    if k == 2:
        return input.flip(list(dims))
    if k == 3:
        return input.flip(dims[0]).transpose(dims[0], dims[1])
    return input.clone()


def take(input, index):
    return input.reshape(-1)[index]


def take_along_dim(input, indices, dim=None):
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    dim = dim % input.dim()
    shape = broadcast_shapes(tuple(s if i != dim else 1 for i, s in enumerate(input.shape)),
                             tuple(s if i != dim else 1 for i, s in enumerate(indices.shape)))
    source = list(shape)
    source[dim] = input.shape[dim]
    index = list(shape)
    index[dim] = indices.shape[dim]
    return input.expand(source).gather(dim, indices.expand(index))


def argwhere(input):
    return input.nonzero()


def is_complex(input):
    return False


def is_signed(input):
    return input.dtype not in (uint8, bool)


def is_nonzero(input):
    if input.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with " + ("no values" if input.numel() == 0
                                                               else "more than one value") + " is ambiguous")
    return input.item() != 0


def is_same_size(input, other):
    return tuple(input.shape) == tuple(other.shape)


def is_conj(input):
    return False


def is_neg(input):
    return False


def is_inference(input):
    return False


def is_distributed(input):
    return False


def resolve_conj(input):
    return input


resolve_neg = _alias(resolve_conj, "resolve_neg")
conj = _alias(resolve_conj, "conj")


def get_device(input):
    return -1 if input.device.type == "cpu" else (input.device.index or 0)


def broadcast_shapes(*shapes):
    out = []
    for shape in shapes:
        shape = (shape,) if _py_isinstance(shape, _py_int) else tuple(shape)
        if len(shape) > len(out):
            out = [1] * (len(shape) - len(out)) + out
        for i, s in enumerate(shape):
            j = len(out) - len(shape) + i
            if s != out[j] and s != 1 and out[j] != 1:
                raise RuntimeError("Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                   "between " + str(out[j]) + " and " + str(s) + ".")
            if out[j] == 1:
                out[j] = s
    return Size(out)


def broadcast_tensors(*tensors):
    if len(tensors) == 1 and not _py_isinstance(tensors[0], Tensor):
        tensors = tensors[0]
    shape = broadcast_shapes(*[t.shape for t in tensors])
    return tuple(t.expand(shape) for t in tensors)


def meshgrid(*tensors, indexing=None):
    if len(tensors) == 1 and not _py_isinstance(tensors[0], Tensor):
        tensors = tuple(tensors[0])
    if indexing is None:
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " + str(indexing))
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0]) + tuple(tensors[2:])
    shape = [t.numel() for t in tensors]
    grids = []
    for i, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[i] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.reshape(-1) for g in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input, r=2, with_replacement=False):
    if input.dim() != 1:
        raise RuntimeError("Expect a 1D vector, but got shape " + str(list(input.shape)))
    pick = _itertools.combinations_with_replacement if with_replacement else _itertools.combinations
    rows = list(pick(_py_range(input.shape[0]), r))
    if not rows:
        return empty(0, r, dtype=input.dtype, device=input.device) if r > 0 else empty(0, dtype=input.dtype)
    index = tensor(rows, device=input.device)
    return input[index]


def block_diag(*tensors):
    mats = [t.reshape(1, -1) if t.dim() < 2 else t for t in tensors]
    mats = [m.reshape(1, 1) if m.dim() == 0 else m for m in mats]
    if not mats:
        return empty(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = promote_types(dtype, m.dtype)
    cols = _py_sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        parts = [zeros(m.shape[0], left, dtype=dtype, device=m.device), m.to(dtype),
                 zeros(m.shape[0], cols - left - m.shape[1], dtype=dtype, device=m.device)]
        rows.append(cat(parts, 1))
        left += m.shape[1]
    return cat(rows, 0)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but got " + str(side))
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if sorter is not None:
        sorted_sequence = sorted_sequence.gather(-1, sorter)
    scalar = not _py_isinstance(input, Tensor)
    values = tensor(input, dtype=sorted_sequence.dtype, device=sorted_sequence.device) if scalar else input
    seq = sorted_sequence
    if seq.dim() == 1:
        below = seq <= values.unsqueeze(-1) if right else seq < values.unsqueeze(-1)
    else:
        below = seq.unsqueeze(-2) <= values.unsqueeze(-1) if right else seq.unsqueeze(-2) < values.unsqueeze(-1)
    return below.sum(-1).to(int32 if out_int32 else int64)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    e = elements if _py_isinstance(elements, Tensor) else tensor(elements)
    t = test_elements if _py_isinstance(test_elements, Tensor) else tensor(test_elements)
    found = (e.reshape(-1, 1) == t.reshape(1, -1)).any(1).reshape(e.shape)
    return found.logical_not() if invert else found


def unravel_index(indices, shape):
    if not _py_isinstance(indices, Tensor):
        indices = tensor(indices)
    if indices.is_floating_point() or indices.dtype == bool:
        raise TypeError("expected 'indices' to be integer dtype, but got " + str(indices.dtype))
    shape = (shape,) if _py_isinstance(shape, _py_int) else tuple(shape)
    out = []
    rest = indices
    for size in reversed(shape):
        out.append(rest.remainder(size))
        rest = rest.div(size, rounding_mode="floor")
    return tuple(reversed(out))


def vander(x, N=None, increasing=False):
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dtype = promote_types(x.dtype, int64)
    out = ones(x.shape[0], _py_max(n, 1), dtype=dtype, device=x.device)
    if n > 1:
        out = cat([out[:, :1], x.to(dtype).unsqueeze(1).expand(x.shape[0], n - 1).cumprod(1)], 1)
    out = out[:, :n]
    return out if increasing else out.flip(1)


def index_copy(input, dim, index, source):
    dim = dim % _py_max(input.dim(), 1)
    shape = [1] * source.dim()
    shape[dim] = -1
    return input.scatter(dim, index.reshape(shape).expand(source.shape), source)


def index_put(input, indices, values, accumulate=False):
    out = input.clone()
    indices = tuple(indices)
    if not accumulate:
        out[indices] = values
        return out
    lead = [i for i in indices]
    linear = zeros((), dtype=int64, device=input.device)
    stride = 1
    for k in _py_range(len(lead) - 1, -1, -1):
        linear = linear + lead[k] * stride
        stride *= input.shape[k]
    rest = list(input.shape[len(lead):])
    flat = out.reshape([stride] + rest)
    linear = linear.reshape(-1)
    updates = values.expand(list(linear.shape) + rest) if _py_isinstance(values, Tensor) else full(
        list(linear.shape) + rest, values, dtype=input.dtype)
    return flat.index_add(0, linear, updates.reshape([linear.shape[0]] + rest)).reshape(input.shape)


def index_put_(input, indices, values, accumulate=False):
    return _C.assign(input, index_put(input, indices, values, accumulate))


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    if reduce not in ("sum", "mean"):
        if reduce in ("prod", "amax", "amin"):
            raise NotImplementedError("scatter_reduce(reduce='" + reduce + "') is not supported yet")
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got " + str(reduce))
    base = input if include_self else input.scatter(dim, index, 0)
    total = base.scatter_add(dim, index, src)
    if reduce == "sum":
        return total
    count = ones_like(input) if include_self else zeros_like(input)
    count = count.scatter_add(dim, index, ones_like(src))
    safe = where(count == 0, ones_like(count), count)
    out = total / safe
    if not input.is_floating_point():
        out = total.div(safe, rounding_mode="floor")
    return where(count == 0, input, out)


def select_scatter(input, src, dim, index):
    out = input.clone()
    out.select(dim, index).copy_(src)
    return out


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    out = input.clone()
    key = (slice(None),) * (dim % input.dim()) + (slice(start, end, step),)
    out[key] = src
    return out


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    # The two dimensions moved last, the diagonal's positions written by
    # index, and the dimensions moved back.
    out = input.movedim((dim1, dim2), (-2, -1)).clone()
    n = src.shape[-1]
    rows = arange(n, device=input.device) + _py_max(-offset, 0)
    out[..., rows, rows + offset] = src
    return out.movedim((-2, -1), (dim1, dim2))


def split_with_sizes(input, split_sizes, dim=0):
    if _py_sum(split_sizes) != input.shape[dim]:
        raise RuntimeError("split_with_sizes expects split_sizes to sum exactly to " + str(input.shape[dim])
                           + " (input tensor's size at dimension " + str(dim) + "), but got split_sizes="
                           + str(list(split_sizes)).replace(" ", ""))
    return input.split(list(split_sizes), dim)


def narrow_copy(input, dim, start, length):
    return input.narrow(dim, start, length).clone()


def dsplit(input, indices_or_sections):
    if input.dim() < 3:
        raise RuntimeError("torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with "
                           + str(input.dim()) + " dimensions!")
    if _py_isinstance(indices_or_sections, _py_int) and input.shape[2] % indices_or_sections:
        raise RuntimeError("torch.dsplit attempted to split along dimension 2, but the size of the dimension "
                           + str(input.shape[2]) + " is not divisible by the split_size " + str(indices_or_sections)
                           + "!")
    return input.tensor_split(indices_or_sections, 2)


def unsafe_chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def unsafe_split(input, split_size, dim=0):
    return input.split(split_size, dim)


unsafe_split_with_sizes = _alias(split_with_sizes, "unsafe_split_with_sizes")


def cross(input, other, dim=None):
    if dim is None:
        _warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                       "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                       "with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        dims = [d for d in _py_range(input.dim()) if input.shape[d] == 3]
        if not dims:
            raise RuntimeError("no dimension of size 3 in input")
        dim = dims[0]
    if input.shape[dim] != 3:
        raise RuntimeError("linalg.cross: inputs dimension " + str(dim) + " must have length 3. Got "
                           + str(input.shape[dim]) + " and " + str(other.shape[dim]))
    a = [input.select(dim, i) for i in _py_range(3)]
    b = [other.select(dim, i) for i in _py_range(3)]
    return stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]], dim)


def matrix_power(input, n):
    if n < 0:
        raise NotImplementedError("matrix_power with a negative exponent (a matrix inverse) is not supported yet")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they are "
                           + str(input.shape[-2]) + " by " + str(input.shape[-1]) + " matrices")
    if n == 0:
        eye_ = eye(input.shape[-1], dtype=input.dtype, device=input.device)
        return eye_.expand(input.shape).clone()
    # ATen's binary powering: squares of the input, multiplied in as the
    # exponent's bits are set.
    result = None
    z = input
    while True:
        if n % 2:
            result = z if result is None else result @ z
        n //= 2
        if n == 0:
            return result
        z = z @ z


def chain_matmul(*matrices, out=None):
    if len(matrices) == 1 and not _py_isinstance(matrices[0], Tensor):
        matrices = tuple(matrices[0])
    result = matrices[0]
    for m in matrices[1:]:
        result = result @ m
    return result


def frobenius_norm(input, dim, keepdim=False):
    return (input * input).sum(dim, keepdim=keepdim).sqrt()


def rsub(input, other, *, alpha=1):
    return sub(other, input, alpha=alpha) if _py_isinstance(other, Tensor) else (input * alpha).neg() + other


def trapezoid(y, x=None, *, dx=None, dim=-1):
    if x is not None:
        if not _py_isinstance(x, Tensor):
            return trapezoid(y, dx=x, dim=dim)
        n = y.shape[dim]
        d = x.diff(dim=dim if x.dim() == y.dim() else -1)
        if x.dim() == 1 and y.dim() > 1:
            shape = [1] * y.dim()
            shape[dim] = n - 1
            d = d.reshape(shape)
        return (d * (y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1))).sum(dim) / 2.0
    dx = 1 if dx is None else dx
    if y.shape[dim] == 0:
        return y.sum(dim)
    return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * dx


def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    n = y.shape[dim]
    pairs = y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)
    if _py_isinstance(x, Tensor):
        return (x.diff(dim=dim) * pairs / 2.0).cumsum(dim)
    step = x if x is not None else (1 if dx is None else dx)
    return (pairs * (step / 2.0)).cumsum(dim)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    return tensor(s, dtype=dtype or get_default_dtype(), device=device, requires_grad=requires_grad)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    if _py_isinstance(obj, Tensor):
        out = obj.to(dtype=dtype or obj.dtype, device=device or obj.device)
        if copy and out is obj:
            out = obj.clone()
        return out.requires_grad_(requires_grad) if requires_grad else out
    return tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, layout=None, device=None,
                 pin_memory=None, requires_grad=False, memory_format=None):
    if high is None:
        low, high = 0, low
    return randint(low, high, tuple(input.shape), generator=generator, dtype=dtype or input.dtype,
                   device=device or input.device, requires_grad=requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=None,
             requires_grad=False):
    exponents = linspace(start, end, steps, dtype=float64)
    out = pow(base, exponents).to(dtype or get_default_dtype())
    return out.to(device) if device is not None else out


def range(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None,
          requires_grad=False):
    _warnings.warn("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    n = _py_int(_math.floor((end - start) / step)) + 1
    out = (arange(n, dtype=float64) * step + start).to(dtype or get_default_dtype())
    return _C.requires_grad_(out.to(device) if device is not None else out, requires_grad)


def _window(name, window_length, periodic, dtype, device, requires_grad, terms):
    # ATen's windows: computed in their dtype from arange, as sums of cosines
    # of 2 pi n / (N - 1), or of N for a periodic one.
    dtype = dtype or get_default_dtype()
    if window_length < 0:
        raise RuntimeError(name + " requires non-negative window_length, got window_length=" + str(window_length))
    if window_length == 0:
        return empty(0, dtype=dtype, device=device)
    if window_length == 1:
        return ones(1, dtype=dtype, device=device)
    n = window_length + 1 if periodic else window_length
    out = terms(arange(n, dtype=dtype), n)
    if periodic:
        out = out[:-1]
    out = out.to(device) if device is not None else out
    return _C.requires_grad_(out, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None,
                requires_grad=False):
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=None, requires_grad=False):
    return _window("hamming_window", window_length, periodic, dtype, device, requires_grad,
                   lambda k, n: (k * (2 * _math.pi / (n - 1))).cos() * (-beta) + alpha)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None,
                    requires_grad=False):
    return _window("blackman_window", window_length, periodic, dtype, device, requires_grad,
                   lambda k, n: 0.08 * (k * (4 * _math.pi / (n - 1))).cos()
                   - 0.5 * (k * (2 * _math.pi / (n - 1))).cos() + 0.42)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=None,
                    requires_grad=False):
    def terms(k, n):
        k = k * (2.0 / (n - 1))
        return where(k <= 1, k, 2 - k)
    return _window("bartlett_window", window_length, periodic, dtype, device, requires_grad, terms)


def alias_copy(input):
    return input.clone()


def detach_copy(input):
    return input.detach().clone()


def diagonal_copy(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2).clone()


def expand_copy(input, size, *, implicit=False):
    return input.expand(size).clone()


def permute_copy(input, dims):
    return input.permute(dims).clone()


def select_copy(input, dim, index):
    return input.select(dim, index).clone()


def slice_copy(input, dim=0, start=None, end=None, step=1):
    return input[(slice(None),) * (dim % input.dim()) + (slice(start, end, step),)].clone()


def split_copy(input, split_size, dim=0):
    return tuple(t.clone() for t in input.split(split_size, dim))


def split_with_sizes_copy(input, split_sizes, dim=0):
    return tuple(t.clone() for t in split_with_sizes(input, split_sizes, dim))


def squeeze_copy(input, dim=None):
    return (input.squeeze() if dim is None else input.squeeze(dim)).clone()


def t_copy(input):
    return input.t().clone()


def transpose_copy(input, dim0, dim1):
    return input.transpose(dim0, dim1).clone()


def unbind_copy(input, dim=0):
    return tuple(t.clone() for t in input.unbind(dim))


def unfold_copy(input, dimension, size, step):
    return input.unfold(dimension, size, step).clone()


def unsqueeze_copy(input, dim):
    return input.unsqueeze(dim).clone()


def view_copy(input, size=None, dtype=None):
    if dtype is not None:
        raise NotImplementedError("view_copy(dtype=...) is not supported yet")
    return input.view(size).clone()


# The Tensor forms of the functions above, and their in-place forms.
for _name in ["absolute", "divide", "multiply", "subtract", "greater", "greater_equal", "less", "less_equal",
              "not_equal", "negative", "positive", "deg2rad", "rad2deg", "sinc", "ldexp", "heaviside", "fmax",
              "fmin", "gcd", "lcm", "ravel", "rot90", "take", "take_along_dim", "argwhere", "is_complex",
              "is_signed", "is_nonzero", "is_same_size", "is_conj", "is_neg", "is_inference", "is_distributed",
              "resolve_conj", "resolve_neg", "conj", "get_device", "index_copy", "index_put", "scatter_reduce",
              "select_scatter", "slice_scatter", "diagonal_scatter", "split_with_sizes", "narrow_copy", "dsplit",
              "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes", "cross", "matrix_power"]:
    setattr(Tensor, _name, _method(globals()[_name]))
for _name in ["absolute", "divide", "multiply", "subtract", "greater", "greater_equal", "less", "less_equal",
              "not_equal", "deg2rad", "rad2deg", "sinc", "ldexp", "heaviside", "gcd", "lcm", "index_copy",
              "scatter_reduce"]:
    setattr(Tensor, _name + "_", _inplace(_name))
Tensor.negative_ = Tensor.neg_
Tensor.index_put_ = index_put_


def deg2rad_(input):
    return input.deg2rad_()


def rad2deg_(input):
    return input.rad2deg_()


def sinc_(input):
    return input.sinc_()


def ldexp_(input, other):
    return input.ldexp_(other)


def gcd_(input, other):
    return input.gcd_(other)


def lcm_(input, other):
    return input.lcm_(other)
