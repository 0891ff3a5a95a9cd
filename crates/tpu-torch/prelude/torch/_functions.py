# The torch functions in Python, on top of the primitives in torch._C (Rust):
# creation and elementwise ops (products, reductions and the grad-mode and
# anomaly flags are in _reductions.py). Signatures, defaults and argument checks
# follow PyTorch; every computation is a _C call, so it is dispatched, logged and
# differentiated by the runtime. Functions here shadow Python built-ins of the
# same name (sum, max, float, ...); the built-ins are also bound as _py_sum,
# _py_max, ... in every prelude module. Part of the `torch` module's body (see
# __init__.py), after _tensor.py (the Tensor class).


def _alias(fn, name):
    # PyTorch's aliases are functions of their own name (`torch.arctan` is
    # named "arctan", not "atan"), which torch.fx's generated code shows; the
    # same code under that name, so no extra call.
    out = type(fn)(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    out.__kwdefaults__ = fn.__kwdefaults__
    out.__qualname__ = name
    out.__doc__ = fn.__doc__
    return out


# Creation.

def zeros(*size, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(full(_sizes(size, "zeros"), 0.0, dtype=dtype or float32, device=device), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(full(_sizes(size, "ones"), 1.0, dtype=dtype or float32, device=device), requires_grad)


def _like_override(input, fill_value, dtype, device, requires_grad):
    # A Python tensor subclass (DTensor) makes its own `*_like`: placed as
    # `input` is.
    dispatch = _py_getattr(_py_type(input), "__tpu_dispatch__", None)
    if dispatch is None:
        return None
    return dispatch("full_like", [input, fill_value, dtype, device, requires_grad])


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    out = _like_override(input, 0, dtype, device, requires_grad)
    if out is not None:
        return out
    return zeros(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    out = _like_override(input, 1, dtype, device, requires_grad)
    if out is not None:
        return out
    return ones(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    out = _like_override(input, fill_value, dtype, device, requires_grad)
    if out is not None:
        return out
    t = full(input.shape, fill_value, dtype=dtype or input.dtype, device=device or input.device)
    return _C.requires_grad_(t, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return zeros_like(input, dtype=dtype, device=device, requires_grad=requires_grad)


def rand_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    _no_generator(generator, "rand_like")
    return rand(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def randn_like(input, *, generator=None, dtype=None, device=None, requires_grad=False):
    _no_generator(generator, "randn_like")
    return randn(input.shape, dtype=dtype or input.dtype, device=device or input.device, requires_grad=requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    return _C.requires_grad_(_C.arange(start, end, step, dtype, device), requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(_C.linspace(start, end, steps, dtype, device), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    return _C.requires_grad_(_C.eye(n, m, dtype, device), requires_grad)


def randint(low=None, high=None, size=None, dtype=None, device=None, generator=None, requires_grad=False):
    # PyTorch's two overloads, randint(high, size) and randint(low, high, size),
    # positionally or by keyword.
    if size is None and high is not None and low is not None:
        low, high, size = 0, low, high
    elif high is None and low is not None and size is not None:
        low, high = 0, low
    elif low is None and high is not None:
        low = 0
    if high is None or size is None:
        raise TypeError("randint() received an invalid combination of arguments: expected "
                        "(int high, tuple of ints size) or (int low, int high, tuple of ints size)")
    with _drawing_from(generator):
        return _C.randint(low, high, size, dtype, device)


def randperm(n, dtype=None, device=None, generator=None, requires_grad=False):
    with _drawing_from(generator):
        return _C.randperm(n, dtype, device)


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    # In torch/serialization.py, imported on first use: its zip and pickle
    # machinery is not worth every program's start (`pickle_module=None` is
    # `pickle`, imported then).
    import torch.serialization
    kwargs = {} if pickle_module is None else {"pickle_module": pickle_module}
    return torch.serialization.save(obj, f, pickle_protocol=pickle_protocol,
                                    _use_new_zipfile_serialization=_use_new_zipfile_serialization, **kwargs)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    import torch.serialization
    return torch.serialization.load(f, map_location, pickle_module, weights_only=weights_only, mmap=mmap,
                                    **pickle_load_args)


def typename(obj, /):
    if _py_isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = obj.__class__.__module__ or ""
        qualname = obj.__class__.__qualname__
    if module in ("", "builtins"):
        return qualname
    return module + "." + qualname


def bernoulli(input, p=None, *, generator=None):
    # bernoulli(input): each element 1 with the probability input holds there;
    # bernoulli(input, p): input's shape, each element 1 with probability p.
    if p is None:
        if not input.is_floating_point():
            raise RuntimeError('"bernoulli_tensor_cpu_p_" not implemented for \'' + _scalar_type_name(input.dtype)
                               + "'")
        return empty_like(input).bernoulli_(input.detach(), generator=generator)
    return empty_like(input).bernoulli_(p, generator=generator)


import struct as _struct


def multinomial(input, num_samples, replacement=False, *, generator=None):
    # ATen's algorithms, so that a seed draws what PyTorch draws. Without
    # replacement, or for one sample: q ~ Exp(1) per probability, the samples
    # are the largest p / q (argmax, or topk for several). With replacement:
    # per row, the float32 running sum of the probabilities normalised by
    # its total, then per sample a double uniform draw found by binary
    # search (computed on the host, as ATen's CPU kernel does).
    if input.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.is_floating_point():
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           + _scalar_type_name(input.dtype))
    n_categories = input.shape[-1]
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > n_categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if not replacement or num_samples == 1:
        if not _py_bool((input.max() < _py_float("inf")) & (input.min() >= 0)):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        sums = input.sum() if input.dim() == 1 else input.sum(1)
        if _py_bool((sums == 0).any()):
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        with no_grad():
            q = empty_like(input).exponential_(1.0, generator=generator)
            q = input / q
            if num_samples == 1:
                return argmax(q, -1, keepdim=True)
            return topk(q, num_samples)[1]
    rows = input.detach().to("cpu").reshape(-1, n_categories).tolist()
    with _drawing_from(generator):
        draws = rand(_py_len(rows) * num_samples, dtype=float64).tolist()
    out = []
    for i, row in enumerate(rows):
        cumulative = []
        total = 0.0
        for p in row:
            if not p >= 0:
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            if p == _py_float("inf"):
                raise RuntimeError("invalid multinomial distribution "
                                   "(encountering probability entry = infinity or NaN)")
            total = _round_like(total + p, input.dtype)
            cumulative.append(total)
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cumulative = [_round_like(c / total, input.dtype) for c in cumulative]
        cumulative[-1] = 1.0
        samples = []
        for u in draws[i * num_samples:(i + 1) * num_samples]:
            left, right = 0, n_categories
            while right - left > 0:
                mid = left + (right - left) // 2
                if cumulative[mid] < u:
                    left = mid + 1
                else:
                    right = mid
            samples.append(left)
        out.append(samples)
    result = tensor(out, dtype=int64, device=input.device)
    return result.reshape(num_samples) if input.dim() == 1 else result


def _round_like(x, dtype):
    # A Python float rounded as ATen's scalar_t arithmetic rounds it.
    if dtype == float64:
        return x
    return _struct.unpack("f", _struct.pack("f", x))[0]


_device_of = device


class Generator:
    # torch.Generator: an engine of its own, seeded like the default one
    # (mt19937 from the seed's low 32 bits), which a draw given `generator=`
    # swaps in for the default engine while it draws.
    def __init__(self, device="cpu"):
        self.device = _device_of(device)
        self._handle = _C.generator_new()
        self._initial_seed = 67280421310721

    def manual_seed(self, seed):
        self._initial_seed = _py_int(seed)
        _C.generator_seed(self._handle, self._initial_seed)
        return self

    def initial_seed(self):
        return self._initial_seed

    def seed(self):
        raise NotImplementedError("torch.Generator.seed() (a non-deterministic seed) is not supported; "
                                  "use manual_seed")

    def get_state(self):
        return tensor(_C.rng_get_state(self._handle, self._initial_seed), dtype=uint8)

    def set_state(self, new_state):
        self._initial_seed = _C.rng_set_state(_rng_state_bytes(new_state), self._handle)
        return self


class _drawing_from:
    # `with _drawing_from(generator):` makes the draws inside it come from
    # `generator` (or from the default engine when it is None).
    def __init__(self, generator):
        if generator is not None and not _py_isinstance(generator, Generator):
            raise TypeError("generator must be a torch.Generator, not " + _py_type(generator).__name__)
        self.generator = generator

    def __enter__(self):
        if self.generator is not None:
            _C.generator_swap(self.generator._handle)

    def __exit__(self, *exc):
        if self.generator is not None:
            _C.generator_swap(self.generator._handle)
        return False


def as_tensor(data, dtype=None, device=None):
    if _py_isinstance(data, Tensor):
        return data.to(device or data.device).to(dtype or data.dtype)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array):
    # The subset of numpy in this playground (`numpy/`) keeps its arrays as
    # CPU tensors: the tensor shares the array's memory, as PyTorch's does.
    import numpy

    if not _py_isinstance(array, numpy.ndarray):
        raise TypeError("expected np.ndarray (got %s)" % _py_type(array).__name__)
    return array._t


# Elementwise.

def add(input, other, alpha=1, out=None):
    if _py_isinstance(input, Tensor):
        return _out(out, input.add(other, alpha=alpha))
    return _out(out, _C.binary("add", input, other * alpha))


def sub(input, other, alpha=1):
    if _py_isinstance(input, Tensor):
        return input.sub(other, alpha=alpha)
    return _C.binary("sub", input, other * alpha)


def mul(input, other, out=None):
    return _out(out, _C.binary("mul", input, other))


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
    return input.square()


def rsqrt(input):
    return input.rsqrt()


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
        return _named(input + weight * (end - input), "LerpBackward0")
    if _py_abs(weight) < 0.5:
        return _named(input + weight * (end - input), "LerpBackward0")
    return _named(end - (end - input) * (1 - weight), "LerpBackward0")


def clamp(input, min=None, max=None, out=None):
    if out is not None:
        return _out(out, clamp(input, min, max))
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


clip = _alias(clamp, "clip")


def where(condition, input=None, other=None):
    if input is None and other is None:
        return tuple(_C.nonzero(condition).unbind(1))
    # PyTorch broadcasts the condition with `input` first, then with `other`,
    # so a mismatch names the pair in that order.
    shape = condition.shape
    for operand in (input, other):
        if _py_isinstance(operand, Tensor):
            shape = _broadcast_pair(shape, operand.shape)
    return _C.where(condition, input, other)


def _broadcast_pair(a, b):
    # The broadcast of two shapes, with the error TensorIterator gives.
    rank = _py_max(len(a), len(b))
    a = [1] * (rank - len(a)) + list(a)
    b = [1] * (rank - len(b)) + list(b)
    for i in _py_range(rank - 1, -1, -1):
        if a[i] != b[i] and a[i] != 1 and b[i] != 1:
            raise RuntimeError("The size of tensor a (" + str(a[i]) + ") must match the size of tensor b ("
                               + str(b[i]) + ") at non-singleton dimension " + str(i))
    return [b[i] if a[i] == 1 else a[i] for i in _py_range(rank)]


def _type_meta_name(dtype):
    # The name ATen's error messages give a dtype (c10's TypeMeta name).
    names = [(float32, "float"), (float64, "double"), (int64, "long int"), (int32, "int"), (uint8, "unsigned char"),
             (bfloat16, "c10::BFloat16"), (float16, "c10::Half")]
    for d, name in names:
        if d == dtype:
            return name
    return str(dtype).replace("torch.", "")


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
                           + _type_meta_name(mask.dtype))
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
