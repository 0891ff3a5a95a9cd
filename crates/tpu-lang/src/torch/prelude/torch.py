# The torch functions in Python, on top of the primitives in torch._C (Rust).
# Signatures, defaults and argument checks follow PyTorch; every computation is a
# _C call, so it is dispatched, logged and differentiated by the runtime.
# Functions here shadow Python built-ins of the same name (sum, max, float, ...);
# the built-ins are also bound as _py_sum, _py_max, ... in every prelude module.
# tensor.py (the Tensor class) runs first in the same namespace.


# Creation.

def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(full(_sizes(size, "zeros"), 0.0, dtype=dtype or float32, device=device), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(full(_sizes(size, "ones"), 1.0, dtype=dtype or float32, device=device), requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return zeros(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return ones(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    t = full(input.shape, fill_value, dtype=dtype or input.dtype, device=device or input.device)
    return _C.requires_grad_(t, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False):
    return rand(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False):
    return randn(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    return _C.requires_grad_(_C.arange(start, end, step, dtype, device), requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(_C.linspace(start, end, steps, dtype, device), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(_C.eye(n, m, dtype, device), requires_grad)


def randint(low, high=None, size=None, dtype=None, device=None, generator=None, requires_grad=False):
    if size is None:
        # randint(high, size)
        low, high, size = 0, low, high
    if generator is not None:
        raise NotImplementedError("generator= is not supported; the default generator is used")
    return _C.randint(low, high, size, dtype, device)


def randperm(n, dtype=None, device=None, generator=None, requires_grad=False):
    if generator is not None:
        raise NotImplementedError("generator= is not supported; the default generator is used")
    return _C.randperm(n, dtype, device)


def as_tensor(data, dtype=None, device=None):
    if _py_isinstance(data, Tensor):
        return data.to(device or data.device).to(dtype or data.dtype)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    raise NotImplementedError("numpy is not available in this runtime")


# Elementwise.

def add(input, other, alpha=1):
    if _py_isinstance(input, Tensor):
        return input.add(other, alpha=alpha)
    return _C.binary("add", input, other * alpha)


def sub(input, other, alpha=1):
    if _py_isinstance(input, Tensor):
        return input.sub(other, alpha=alpha)
    return _C.binary("sub", input, other * alpha)


def mul(input, other):
    return _C.binary("mul", input, other)


def div(input, other, rounding_mode=None):
    if _py_isinstance(input, Tensor):
        return input.div(other, rounding_mode=rounding_mode)
    return _C.binary("div", input, other)


def pow(input, exponent):
    return _C.binary("pow", input, exponent)


def maximum(input, other):
    return _C.binary("maximum", input, other)


def minimum(input, other):
    return _C.binary("minimum", input, other)


def remainder(input, other):
    return _C.binary("remainder", input, other)


def floor_divide(input, other):
    return _C.binary("floor_divide", input, other)


def square(input):
    return input * input


def rsqrt(input):
    return 1.0 / input.sqrt()


def erf(input):
    return _C.unary("erf", input)


def floor(input):
    return _C.unary("floor", input)


def ceil(input):
    return _C.unary("ceil", input)


def round(input, decimals=0):
    return input.round(decimals)


def sign(input):
    return _C.unary("sign", input)


def lerp(input, end, weight):
    # ATen's formula: from the nearer end, for accuracy.
    if _py_isinstance(weight, Tensor):
        return input + weight * (end - input)
    if _py_abs(weight) < 0.5:
        return input + weight * (end - input)
    return end - (end - input) * (1 - weight)


def clamp(input, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    out = input
    if min is not None:
        out = _C.binary("maximum", out, min)
    if max is not None:
        out = _C.binary("minimum", out, max)
    if not _py_isinstance(min, Tensor) and not _py_isinstance(max, Tensor):
        _C.rename_grad_fn(out, "ClampBackward1")
    return out


clip = clamp


def where(condition, input=None, other=None):
    if input is None and other is None:
        return tuple(_C.nonzero(condition).unbind(1))
    return _C.where(condition, input, other)


def masked_fill(input, mask, value):
    if _py_isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               + str(value.dim()) + " dimension(s).")
        value = value.to(input.dtype)
    else:
        value = full((), value, dtype=input.dtype, device=input.device)
    if mask.dtype != bool:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           + str(mask.dtype).replace("torch.", ""))
    out = _C.where(mask, value.to(input.device), input)
    _C.rename_grad_fn(out, "MaskedFillBackward0")
    return out


def triu(input, diagonal=0):
    n, m = input.shape[-2], input.shape[-1]
    rows = arange(n, device=input.device).unsqueeze(1)
    cols = arange(m, device=input.device).unsqueeze(0)
    out = _C.where(cols - rows >= diagonal, input, zeros((), dtype=input.dtype, device=input.device))
    _C.rename_grad_fn(out, "TriuBackward0")
    return out


def tril(input, diagonal=0):
    n, m = input.shape[-2], input.shape[-1]
    rows = arange(n, device=input.device).unsqueeze(1)
    cols = arange(m, device=input.device).unsqueeze(0)
    out = _C.where(cols - rows <= diagonal, input, zeros((), dtype=input.dtype, device=input.device))
    _C.rename_grad_fn(out, "TrilBackward0")
    return out


def eq(input, other):
    return _C.compare("eq", input, other)


def ne(input, other):
    return _C.compare("ne", input, other)


def lt(input, other):
    return _C.compare("lt", input, other)


def le(input, other):
    return _C.compare("le", input, other)


def gt(input, other):
    return _C.compare("gt", input, other)


def ge(input, other):
    return _C.compare("ge", input, other)


def logical_not(input):
    return _C.compare("eq", input, 0)


def equal(input, other):
    return input.shape == other.shape and _py_bool((input == other).all().item())


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    diff = (input - other).abs()
    return _py_bool((diff <= atol + rtol * other.abs()).all().item())


def isnan(input):
    return input != input


def isinf(input):
    return input.abs() == _py_float("inf")


def isfinite(input):
    return (input == input) & (input.abs() != _py_float("inf"))


# Products and reductions.

def matmul(input, other):
    return _C.matmul(input, other)


def mm(input, mat2):
    return _C.mm(input, mat2)


def bmm(input, mat2):
    return _C.bmm(input, mat2)


def dot(input, other):
    return _C.matmul(input, other)


def outer(input, vec2):
    return input.unsqueeze(1) * vec2.unsqueeze(0)


def sum(input, dim=None, keepdim=False, dtype=None):
    return input.sum(dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, dtype=None):
    return input.mean(dim, keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, dtype=None):
    return input.prod(dim, keepdim, dtype=dtype)


def max(input, dim=None, keepdim=False):
    return input.max(dim, keepdim)


def min(input, dim=None, keepdim=False):
    return input.min(dim, keepdim)


def amax(input, dim=None, keepdim=False):
    return input.amax(dim, keepdim)


def amin(input, dim=None, keepdim=False):
    return input.amin(dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return input.argmax(dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return input.argmin(dim, keepdim)


def any(input, dim=None, keepdim=False):
    return input.any(dim, keepdim)


def all(input, dim=None, keepdim=False):
    return input.all(dim, keepdim)


def cumsum(input, dim, dtype=None):
    return input.cumsum(dim, dtype=dtype)


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    if unbiased is None or unbiased:
        return 1
    return 0


def var(input, dim=None, unbiased=None, keepdim=False, correction=None):
    if _py_isinstance(dim, _py_bool):
        unbiased, dim = dim, None
    c = _correction(unbiased, correction)
    if dim is None:
        n = input.numel()
        centered = input - input.mean()
        out = (centered * centered).sum() / _py_max(n - c, 0)
    else:
        dims = _dims(dim)
        n = 1
        for d in dims:
            n = n * input.shape[d]
        centered = input - input.mean(dims, keepdim=True)
        out = (centered * centered).sum(dims, keepdim=keepdim) / _py_max(n - c, 0)
    _C.rename_grad_fn(out, "VarBackward0")
    return out


def std(input, dim=None, unbiased=None, keepdim=False, correction=None):
    out = var(input, dim, unbiased=unbiased, keepdim=keepdim, correction=correction).sqrt()
    _C.rename_grad_fn(out, "StdBackward0")
    return out


def norm(input, p=2, dim=None, keepdim=False):
    if p == 2 or p == "fro":
        out = (input * input).sum(dim, keepdim).sqrt()
    elif p == 1:
        out = input.abs().sum(dim, keepdim)
    elif p == _py_float("inf"):
        out = input.abs().amax(dim, keepdim)
    else:
        out = (input.abs() ** p).sum(dim, keepdim) ** (1.0 / p)
    _C.rename_grad_fn(out, "NormBackward1")
    return out


def logsumexp(input, dim, keepdim=False):
    dims = _dims(dim)
    m = input.detach().amax(dims, keepdim=True)
    m = where(m.abs() == _py_float("inf"), zeros((), device=input.device), m)
    out = (input - m).exp().sum(dims, keepdim=True).log() + m
    if not keepdim:
        out = out.squeeze(dims)
    _C.rename_grad_fn(out, "LogsumexpBackward0")
    return out


def softmax(input, dim, dtype=None):
    x = input if dtype is None else input.to(dtype)
    m = x.detach().amax(dim, keepdim=True)
    e = (x - m).exp()
    out = e / e.sum(dim, keepdim=True)
    _C.rename_grad_fn(out, "SoftmaxBackward0")
    return out


def log_softmax(input, dim, dtype=None):
    x = input if dtype is None else input.to(dtype)
    m = x.detach().amax(dim, keepdim=True)
    shifted = x - m
    out = shifted - shifted.exp().sum(dim, keepdim=True).log()
    _C.rename_grad_fn(out, "LogSoftmaxBackward0")
    return out


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


concat = cat
concatenate = cat


def stack(tensors, dim=0):
    tensors = list(tensors)
    if _py_len(tensors) == 0:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for i, x in enumerate(tensors):
        if x.shape != first:
            raise RuntimeError("stack expects each tensor to be equal size, but got "
                               + str(list(first)).replace(" ", "") + " at entry 0 and "
                               + str(list(x.shape)).replace(" ", "") + " at entry " + str(i))
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
                               + str(sizes).replace(" ", ""))
    out = []
    at = 0
    for s in sizes:
        out.append(_C.slice(tensor, dim, at, at + s, 1))
        at += s
    return tuple(out)


def chunk(input, chunks, dim=0):
    n = input.shape[dim]
    size = (n + chunks - 1) // chunks
    return split(input, _py_max(size, 1), dim)


def unbind(input, dim=0):
    return tuple(_C.select(input, dim, i) for i in range(input.shape[dim]))


def index_select(input, dim, index):
    sl = [slice(None)] * input.dim()
    sl[dim] = index
    return input[tuple(sl)]


def gather(input, dim, index):
    # out[i][j] = input[index[i][j]][j] for dim 0 (and so on), via flat positions.
    d = dim % input.dim()
    coords = []
    for k in range(input.dim()):
        if k == d:
            coords.append(index)
        else:
            shape = [1] * input.dim()
            shape[k] = index.shape[k]
            coords.append(arange(index.shape[k], device=index.device).reshape(shape).expand(index.shape))
    return input[tuple(coords)]


def numel(input):
    return input.numel()


def is_grad_enabled():
    return _C.is_grad_enabled()


def _decorate_with_grad_mode(mode, func):
    # What `@torch.no_grad()` (and the other grad modes) make of `func`: the
    # same call, run inside `with mode:`.
    def decorate_context(*args, **kwargs):
        with mode:
            return func(*args, **kwargs)
    return decorate_context


class set_grad_enabled:
    # As in PyTorch: the mode is set at once (so a plain call works), restored
    # when a `with` block ends, and restored before decorating a function that
    # then runs under the mode.
    def __init__(self, mode):
        self.prev = _C.is_grad_enabled()
        self.mode = mode
        _C.set_grad_enabled(mode)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        _C.set_grad_enabled(self.prev)

    def __call__(self, func):
        _C.set_grad_enabled(self.prev)
        return (enable_grad() if self.mode else no_grad())(func)


# Anomaly detection checks each backward for NaNs and names the forward op that
# made them; the flag is kept so `torch.is_anomaly_enabled()` reads true, while
# the checks themselves are not made here (the project's backward raises on no
# NaN either way).
_anomaly_enabled = [False, True]


def is_anomaly_enabled():
    return _anomaly_enabled[0]


def is_anomaly_check_nan_enabled():
    return _anomaly_enabled[1]


def set_anomaly_enabled(enabled, check_nan=True):
    _anomaly_enabled[0] = enabled
    _anomaly_enabled[1] = check_nan


def is_floating_point(input):
    return input.is_floating_point()


def get_default_dtype():
    return float32


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    raise NotImplementedError("torch.set_printoptions is not supported yet")
