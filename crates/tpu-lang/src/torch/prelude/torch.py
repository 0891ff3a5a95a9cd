# The torch API in Python, on top of the primitives in torch._C (Rust).
# Signatures, defaults and argument checks follow PyTorch; every computation is a
# _C call, so it is dispatched, logged and differentiated by the runtime.
# Functions here shadow Python built-ins of the same name (sum, max, float, ...);
# the built-ins are also bound as _py_sum, _py_max, ... in every prelude module.
# This file passes 600 lines: it is the `Tensor` class (its methods written in
# Python) and the `torch.` functions, the surface issue 17's sweep from
# PyTorch's own metadata rewrites; its seam is that split, into two prelude
# modules, left for that sweep so the surface moves once.

half = bfloat16
float16 = bfloat16


def _sizes(size, name):
    # zeros(2, 3), zeros((2, 3)), zeros([2, 3]) and zeros(torch.Size([2, 3])).
    if _py_len(size) == 1 and not _py_isinstance(size[0], _py_int):
        return tuple(size[0])
    return size


def _dims(dim):
    if dim is None:
        return None
    if _py_isinstance(dim, _py_int):
        return [dim]
    return list(dim)


class _ReturnType:
    # torch.return_types.max and friends: a (values, indices) pair with names.
    def __init__(self, name, values, indices):
        self._name = name
        self.values = values
        self.indices = indices

    def __iter__(self):
        return iter((self.values, self.indices))

    def __getitem__(self, i):
        return (self.values, self.indices)[i]

    def __len__(self):
        return 2

    def __repr__(self):
        return ("torch.return_types." + self._name + "(\nvalues=" + repr(self.values)
                + ",\nindices=" + repr(self.indices) + ")")


class Tensor:
    # Methods of tensor objects that are written in Python. Tensors themselves
    # are native values; attribute lookup falls back to this class.

    def add(self, other, alpha=1):
        if alpha != 1:
            other = other * alpha
        return _C.binary("add", self, other)

    def sub(self, other, alpha=1):
        if alpha != 1:
            other = other * alpha
        return _C.binary("sub", self, other)

    def mul(self, other):
        return _C.binary("mul", self, other)

    def div(self, other, rounding_mode=None):
        if rounding_mode == "floor":
            return _C.binary("floor_divide", self, other)
        if rounding_mode == "trunc":
            q = _C.binary("div", self, other)
            return where(q < 0, q.ceil(), q.floor()).to(self.dtype)
        return _C.binary("div", self, other)

    def pow(self, exponent):
        return _C.binary("pow", self, exponent)

    def matmul(self, other):
        return _C.matmul(self, other)

    def mm(self, other):
        return _C.mm(self, other)

    def bmm(self, other):
        return _C.bmm(self, other)

    def maximum(self, other):
        return _C.binary("maximum", self, other)

    def minimum(self, other):
        return _C.binary("minimum", self, other)

    def remainder(self, other):
        return _C.binary("remainder", self, other)

    def floor_divide(self, other):
        return _C.binary("floor_divide", self, other)

    def square(self):
        return _C.binary("mul", self, self)

    def rsqrt(self):
        return 1.0 / _C.unary("sqrt", self)

    def reciprocal(self):
        return 1.0 / self

    def round(self, decimals=0):
        if decimals != 0:
            scale = 10.0 ** decimals
            return _C.unary("round", self * scale) / scale
        return _C.unary("round", self)

    def log_softmax(self, dim, dtype=None):
        return log_softmax(self, dim, dtype=dtype)

    def softmax(self, dim, dtype=None):
        return softmax(self, dim, dtype=dtype)

    def logsumexp(self, dim, keepdim=False):
        return logsumexp(self, dim, keepdim)

    def eq(self, other):
        return _C.compare("eq", self, other)

    def ne(self, other):
        return _C.compare("ne", self, other)

    def lt(self, other):
        return _C.compare("lt", self, other)

    def le(self, other):
        return _C.compare("le", self, other)

    def gt(self, other):
        return _C.compare("gt", self, other)

    def ge(self, other):
        return _C.compare("ge", self, other)

    def logical_not(self):
        return _C.compare("eq", self, 0)

    def logical_and(self, other):
        return self.bool() & other.bool()

    def logical_or(self, other):
        return self.bool() | other.bool()

    def sum(self, dim=None, keepdim=False, dtype=None):
        out = _C.sum(self, _dims(dim), keepdim)
        return out if dtype is None else out.to(dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        return _C.mean(x, _dims(dim), keepdim)

    def prod(self, dim=None, keepdim=False, dtype=None):
        out = _C.prod(self, dim, keepdim)
        return out if dtype is None else out.to(dtype)

    def max(self, dim=None, keepdim=False):
        if dim is None:
            return _C.extremum_all(self, True)
        if _py_isinstance(dim, Tensor):
            return _C.binary("maximum", self, dim)
        values, indices = _C.extremum_dim(self, dim, keepdim, True)
        return _ReturnType("max", values, indices)

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return _C.extremum_all(self, False)
        if _py_isinstance(dim, Tensor):
            return _C.binary("minimum", self, dim)
        values, indices = _C.extremum_dim(self, dim, keepdim, False)
        return _ReturnType("min", values, indices)

    def amax(self, dim=None, keepdim=False):
        if dim is None:
            return _C.extremum_all(self, True)
        out = self
        for d in sorted([d % _py_max(self.dim(), 1) for d in _dims(dim)], reverse=True):
            out = _C.extremum_dim(out, d, keepdim, True, False)[0]
        return out

    def amin(self, dim=None, keepdim=False):
        if dim is None:
            return _C.extremum_all(self, False)
        out = self
        for d in sorted([d % _py_max(self.dim(), 1) for d in _dims(dim)], reverse=True):
            out = _C.extremum_dim(out, d, keepdim, False, False)[0]
        return out

    def argmax(self, dim=None, keepdim=False):
        return _C.arg_extremum(self, dim, keepdim, True)

    def argmin(self, dim=None, keepdim=False):
        return _C.arg_extremum(self, dim, keepdim, False)

    def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return var(self, dim, unbiased=unbiased, keepdim=keepdim, correction=correction)

    def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return std(self, dim, unbiased=unbiased, keepdim=keepdim, correction=correction)

    def norm(self, p=2, dim=None, keepdim=False):
        return norm(self, p, dim, keepdim)

    def cumsum(self, dim, dtype=None):
        out = _C.cumsum(self, dim)
        return out if dtype is None else out.to(dtype)

    def any(self, dim=None, keepdim=False):
        nonzero = self if self.dtype == bool else _C.compare("ne", self, 0)
        if dim is None:
            return _C.extremum_all(nonzero, True)
        return _C.extremum_dim(nonzero, dim, keepdim, True, False)[0]

    def all(self, dim=None, keepdim=False):
        nonzero = self if self.dtype == bool else _C.compare("ne", self, 0)
        if dim is None:
            return _C.extremum_all(nonzero, False)
        return _C.extremum_dim(nonzero, dim, keepdim, False, False)[0]

    def view(self, *shape):
        if _py_len(shape) == 1 and not _py_isinstance(shape[0], _py_int):
            if _py_isinstance(shape[0], type(float32)):
                raise NotImplementedError("view(dtype) is not supported")
            shape = shape[0]
        return _C.view(self, shape)

    def view_as(self, other):
        return _C.view(self, other.shape)

    def reshape(self, *shape):
        return _C.reshape(self, _sizes(shape, "reshape"))

    def reshape_as(self, other):
        return _C.reshape(self, other.shape)

    def permute(self, *dims):
        return _C.permute(self, _sizes(dims, "permute"))

    def transpose(self, dim0, dim1):
        return _C.transpose(self, dim0, dim1)

    def t(self):
        if self.dim() > 2:
            raise RuntimeError("t() expects a tensor with <= 2 dimensions, but self is "
                               + str(self.dim()) + "D")
        if self.dim() < 2:
            return self
        return _C.transpose(self, 0, 1)

    def expand(self, *sizes):
        return _C.expand(self, _sizes(sizes, "expand"))

    def expand_as(self, other):
        return _C.expand(self, other.shape)

    def broadcast_to(self, size):
        return _C.expand(self, size)

    def unsqueeze(self, dim):
        return _C.unsqueeze(self, dim)

    def squeeze(self, dim=None):
        return _C.squeeze(self, dim)

    def flatten(self, start_dim=0, end_dim=-1):
        n = self.dim()
        if n == 0:
            return _C.reshape(self, [1])
        s = start_dim % n
        e = end_dim % n
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        dims = list(self.shape)
        merged = 1
        for d in dims[s:e + 1]:
            merged = merged * d
        return _C.reshape(self, dims[:s] + [merged] + dims[e + 1:])

    def unflatten(self, dim, sizes):
        dims = list(self.shape)
        d = dim % _py_len(dims)
        return _C.reshape(self, dims[:d] + list(sizes) + dims[d + 1:])

    def contiguous(self):
        return _C.contiguous(self)

    def is_contiguous(self):
        return _C.is_contiguous(self)

    def clone(self):
        return _C.clone(self)

    def detach(self):
        return _C.detach(self)

    def detach_(self):
        raise NotImplementedError("detach_() is not supported; use x = x.detach()")

    def split(self, split_size, dim=0):
        return split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        return chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return unbind(self, dim)

    def narrow(self, dim, start, length):
        return _C.slice(self, dim, start, start + length, 1)

    def masked_fill(self, mask, value):
        return masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return _C.assign(self, masked_fill(self, mask, value))

    def masked_select(self, mask):
        return self[mask.expand_as(self) if mask.shape != self.shape else mask]

    def index_select(self, dim, index):
        return index_select(self, dim, index)

    def gather(self, dim, index):
        return gather(self, dim, index)

    def clamp(self, min=None, max=None):
        return clamp(self, min, max)

    def clip(self, min=None, max=None):
        return clamp(self, min, max)

    def clamp_(self, min=None, max=None):
        return _C.assign(self, clamp(self, min, max))

    def where(self, condition, other):
        return where(condition, self, other)

    def triu(self, diagonal=0):
        return triu(self, diagonal)

    def tril(self, diagonal=0):
        return tril(self, diagonal)

    def type_as(self, other):
        return self.to(other.dtype)

    def new_zeros(self, *size, dtype=None, device=None):
        return zeros(*size, dtype=dtype or self.dtype, device=device or self.device)

    def new_ones(self, *size, dtype=None, device=None):
        return ones(*size, dtype=dtype or self.dtype, device=device or self.device)

    def new_full(self, size, fill_value, dtype=None, device=None):
        return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device)

    def new_tensor(self, data, dtype=None, device=None):
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device)

    def element_size(self):
        if self.dtype == float32:
            return 4
        if self.dtype == bfloat16:
            return 2
        if self.dtype == int64:
            return 8
        return 1

    def nelement(self):
        return self.numel()

    def is_floating_point(self):
        return self.dtype == float32 or self.dtype == bfloat16

    def nonzero(self):
        return _C.nonzero(self)

    def argsort(self, dim=-1, descending=False):
        raise NotImplementedError("argsort() is not supported yet")

    # Autograd.
    def backward(self, gradient=None, retain_graph=None, create_graph=False):
        if create_graph:
            raise NotImplementedError("backward(create_graph=True) is not supported")
        return _C.backward(self, gradient, _py_bool(retain_graph))

    def requires_grad_(self, requires_grad=True):
        return _C.requires_grad_(self, requires_grad)

    def retain_grad(self):
        _C.retain_grad(self)

    # In-place updates: computed out of place, then written into the storage.
    def add_(self, other, alpha=1):
        return _C.assign(self, self.add(other, alpha=alpha))

    def sub_(self, other, alpha=1):
        return _C.assign(self, self.sub(other, alpha=alpha))

    def mul_(self, other):
        return _C.assign(self, _C.binary("mul", self, other))

    def div_(self, other):
        return _C.assign(self, _C.binary("div", self, other))

    def pow_(self, exponent):
        return _C.assign(self, _C.binary("pow", self, exponent))

    def neg_(self):
        return _C.assign(self, -self)

    def abs_(self):
        return _C.assign(self, self.abs())

    def exp_(self):
        return _C.assign(self, self.exp())

    def sqrt_(self):
        return _C.assign(self, self.sqrt())

    def relu_(self):
        return _C.assign(self, self.relu())

    def zero_(self):
        return _C.write(self, 0)

    def fill_(self, value):
        return _C.write(self, value)

    def copy_(self, src):
        return _C.write(self, src)

    def uniform_(self, a=0.0, b=1.0):
        return _C.fill_random(self, False, a, b)

    def normal_(self, mean=0.0, std=1.0):
        return _C.fill_random(self, True, mean, std)

    def lerp_(self, end, weight):
        return _C.assign(self, lerp(self, end, weight))

    def lerp(self, end, weight):
        return lerp(self, end, weight)

    def addcmul_(self, tensor1, tensor2, value=1):
        return _C.assign(self, self + tensor1 * value * tensor2)

    def addcdiv_(self, tensor1, tensor2, value=1):
        return _C.assign(self, self + tensor1 * value / tensor2)

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]


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


def is_floating_point(input):
    return input.is_floating_point()


def get_default_dtype():
    return float32


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    raise NotImplementedError("torch.set_printoptions is not supported yet")
