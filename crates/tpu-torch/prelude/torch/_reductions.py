# The torch functions in Python, continued: products, reductions, softmax, and
# the grad-mode and anomaly-detection flags. Part of the `torch` module's body
# (see __init__.py), after _functions.py, in the same namespace.

# Products and reductions.

def matmul(input, other, out=None):
    return _out(out, _C.matmul(input, other))


def _no_out_dtype(out_dtype, function):
    if out_dtype is not None:
        raise NotImplementedError(function + "(out_dtype=...) is not supported yet")


def mm(input, mat2, out=None, out_dtype=None):
    _no_out_dtype(out_dtype, "mm")
    for name, x in [("self", input), ("mat2", mat2)]:
        if x.dim() != 2:
            raise RuntimeError("mm: " + name + " must be a matrix, got " + str(x.dim()) + "-D tensor")
    return _out(out, _C.mm(input, mat2))


def _out(out, result):
    # The `out=` argument: the result written into `out`, which is returned.
    if out is None:
        return result
    if out.shape != result.shape:
        _C.set_data(out, result.to(out.dtype))
        return out
    return _C.assign(out, result)


def bmm(input, mat2, out_dtype=None):
    _no_out_dtype(out_dtype, "bmm")
    return _C.bmm(input, mat2)


def dot(input, tensor):
    return _C.matmul(input, tensor)


def outer(input, vec2):
    return input.unsqueeze(1) * vec2.unsqueeze(0)


def sum(input, dim=None, keepdim=False, dtype=None, out=None):
    return _out(out, input.sum(dim, keepdim, dtype=dtype))


def mean(input, dim=None, keepdim=False, dtype=None):
    return input.mean(dim, keepdim, dtype=dtype)


def prod(input, dim=None, keepdim=False, dtype=None):
    return input.prod(dim, keepdim, dtype=dtype)


def max(input, dim=None, keepdim=False, other=None):
    return input.max(dim, keepdim, other=other)


def min(input, dim=None, keepdim=False, other=None):
    return input.min(dim, keepdim, other=other)


def amax(input, dim=(), keepdim=False):
    return input.amax(dim, keepdim)


def amin(input, dim=(), keepdim=False):
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


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    if out is not None:
        raise NotImplementedError("norm(out=...) is not supported yet")
    if dtype is not None:
        input = input.to(dtype)
    if p == 2 or p == "fro":
        out = (input * input).sum(dim, keepdim).sqrt()
    elif p == 1:
        out = input.abs().sum(dim, keepdim)
    elif p == _py_float("inf"):
        out = input.abs().amax(dim, keepdim)
    else:
        out = (input.abs() ** p).sum(dim, keepdim) ** (1.0 / p)
    _C.rename_grad_fn(out, "LinalgVectorNormBackward0")
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


def _sharded_along(input, dims, compute):
    # A Python tensor subclass (DTensor) runs `compute` on its local tensor
    # once `dims` are whole on every rank, as PyTorch's rules for softmax
    # and layer_norm gather a sharded dimension first.
    dispatch = _py_getattr(_py_type(input), "__tpu_dispatch__", None)
    if dispatch is None:
        return None
    return dispatch("along_dims", [input, dims, compute])


def softmax(input, dim, dtype=None):
    out = _sharded_along(input, [dim], lambda x: softmax(x, dim, dtype))
    if out is not None:
        return out
    if dtype is None and input.dtype in (bfloat16, float16):
        # ATen computes a half-precision softmax in float32 and rounds once.
        return softmax(input.to(float32), dim).to(input.dtype)
    x = input if dtype is None else input.to(dtype)
    m = x.detach().amax(dim, keepdim=True)
    e = (x - m).exp()
    out = e / e.sum(dim, keepdim=True)
    _C.rename_grad_fn(out, "SoftmaxBackward0")
    return out


def log_softmax(input, dim, dtype=None):
    out = _sharded_along(input, [dim], lambda x: log_softmax(x, dim, dtype))
    if out is not None:
        return out
    if dtype is None and input.dtype in (bfloat16, float16):
        # ATen computes a half-precision log_softmax in float32 and rounds once.
        return log_softmax(input.to(float32), dim).to(input.dtype)
    x = input if dtype is None else input.to(dtype)
    m = x.detach().amax(dim, keepdim=True)
    shifted = x - m
    out = shifted - shifted.exp().sum(dim, keepdim=True).log()
    _C.rename_grad_fn(out, "LogSoftmaxBackward0")
    return out


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
    _C.set_printoptions(precision, threshold, edgeitems, linewidth, profile, sci_mode)
