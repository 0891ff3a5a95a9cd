# Automatic mixed precision: torch.autocast and its switches (part of the
# `torch` module's body, after _nnops.py). Inside an enabled region the ops
# PyTorch lists as lower-precision (matrix products, linear, convolutions,
# scaled_dot_product_attention) take their floating operands rounded to the
# region's dtype (bfloat16 by default, as on a TPU) and return that dtype;
# the losses compute in float32. A product is computed as a TPU's MXU (and
# oneDNN's bf16 GEMM, which PyTorch's CPU autocast runs) computes it: bf16
# operands, products accumulated in float32, one rounding of the result. The
# casts are ordinary ops, so the op log shows each of them.

_autocast_state = {"cpu": [False, bfloat16], "tpu": [False, bfloat16], "xla": [False, bfloat16],
                   "cuda": [False, float16]}
_autocast_flags = {"cache": True, "nesting": 0, "suspended": 0}


def _autocast_dtype_for(*tensors):
    # The dtype autocast gives an op on these tensors, or None outside a region.
    if _autocast_flags["suspended"]:
        return None
    for t in tensors:
        if _py_isinstance(t, Tensor):
            state = _autocast_state.get(t.device.type)
            return state[1] if state is not None and state[0] else None
    return None


def _autocast_eligible(t):
    # PyTorch casts floating tensors other than float64.
    return _py_isinstance(t, Tensor) and t.is_floating_point() and t.dtype != float64


class _autocast_suspended:
    # The ops inside run as if no autocast region were open (an op autocast
    # already handled runs its parts as they are).
    def __enter__(self):
        _autocast_flags["suspended"] += 1

    def __exit__(self, *exc):
        _autocast_flags["suspended"] -= 1
        return False


def _autocast_lowp(fn, args, dtype):
    # `fn` on the eligible tensors of `args` rounded to `dtype` and carried
    # in float32, with autocast suspended inside; the result rounded once.
    rounded = [a.to(dtype).to(float32) if _autocast_eligible(a) else a for a in args]
    _autocast_flags["suspended"] += 1
    try:
        out = fn(*rounded)
    finally:
        _autocast_flags["suspended"] -= 1
    return out.to(dtype)


def _autocast_fp32(*tensors):
    # The operands of an op autocast runs in float32 (the losses).
    if _autocast_dtype_for(*tensors) is None:
        return tensors
    return tuple(t.to(float32) if _autocast_eligible(t) and t.dtype != float32 else t for t in tensors)


def _autocast_primitive(original):
    def primitive(a, b):
        dtype = _autocast_dtype_for(a, b)
        if dtype is None or not (_autocast_eligible(a) and _autocast_eligible(b)):
            return original(a, b)
        return _autocast_lowp(original, (a, b), dtype)
    primitive.__name__ = original.__name__
    return primitive


# Every matrix product reaches one of these primitives (`@`, torch.matmul,
# mm, bmm, and so linear, the convolutions and attention).
_C.matmul = _autocast_primitive(_C.matmul)
_C.mm = _autocast_primitive(_C.mm)
_C.bmm = _autocast_primitive(_C.bmm)


def _autocast_wrap(fn, lowp_args):
    # A lower-precision op whose first `lowp_args` arguments are its
    # operands (a bias or an added input rounded with them, so the result is
    # rounded once, as a fused GEMM rounds it).
    def op(*args, **kwargs):
        dtype = _autocast_dtype_for(*args[:lowp_args])
        if dtype is None or kwargs:
            return fn(*args, **kwargs)
        return _autocast_lowp(fn, args, dtype)
    op.__name__ = op.__qualname__ = fn.__name__
    op.__wrapped__ = fn
    return op


addmm = _autocast_wrap(addmm, 3)
baddbmm = _autocast_wrap(baddbmm, 3)
addbmm = _autocast_wrap(addbmm, 3)


def _autocast_device(device_type):
    if device_type not in _autocast_state:
        raise RuntimeError("User specified an unsupported autocast device_type '" + str(device_type) + "'")
    return _autocast_state[device_type]


def is_autocast_enabled(device_type=None):
    # Without a device type, PyTorch answers for CUDA.
    return _autocast_device(device_type or "cuda")[0]


def set_autocast_enabled(device_type, enabled=None):
    if enabled is None:
        device_type, enabled = "cuda", device_type
    _autocast_device(device_type)[0] = _py_bool(enabled)


def get_autocast_dtype(device_type):
    return _autocast_device(device_type)[1]


def set_autocast_dtype(device_type, dtype):
    _autocast_device(device_type)[1] = dtype


def is_autocast_cpu_enabled():
    return _autocast_state["cpu"][0]


def set_autocast_cpu_enabled(enabled):
    _autocast_state["cpu"][0] = _py_bool(enabled)


def get_autocast_cpu_dtype():
    return _autocast_state["cpu"][1]


def set_autocast_cpu_dtype(dtype):
    _autocast_state["cpu"][1] = dtype


def get_autocast_gpu_dtype():
    return _autocast_state["cuda"][1]


def set_autocast_gpu_dtype(dtype):
    _autocast_state["cuda"][1] = dtype


def is_autocast_cache_enabled():
    return _autocast_flags["cache"]


def set_autocast_cache_enabled(enabled):
    _autocast_flags["cache"] = _py_bool(enabled)


def clear_autocast_cache():
    # Casts are not cached here: each op casts its operands.
    return None


def autocast_increment_nesting():
    _autocast_flags["nesting"] += 1
    return _autocast_flags["nesting"]


def autocast_decrement_nesting():
    _autocast_flags["nesting"] -= 1
    return _autocast_flags["nesting"]


class autocast:
    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not _py_isinstance(device_type, str):
            raise ValueError("Expected `device_type` of type `str`, got: `" + str(_py_type(device_type)) + "`")
        _autocast_device(device_type)
        self.device = device_type
        self.fast_dtype = dtype if dtype is not None else _autocast_state[device_type][1]
        self._enabled = _py_bool(enabled)
        self._cache_enabled = _autocast_flags["cache"] if cache_enabled is None else cache_enabled
        if self.device in ("cpu", "tpu", "xla") and self.fast_dtype not in (bfloat16, float16):
            import warnings
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                          "CPU Autocast only supports dtype of torch.bfloat16, torch.float16 currently.")
            self._enabled = False

    def __enter__(self):
        state = _autocast_state[self.device]
        self.prev, self.prev_fastdtype = state[0], state[1]
        self.prev_cache_enabled = _autocast_flags["cache"]
        state[0], state[1] = self._enabled, self.fast_dtype
        _autocast_flags["cache"] = self._cache_enabled
        autocast_increment_nesting()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        state = _autocast_state[self.device]
        state[0], state[1] = self.prev, self.prev_fastdtype
        _autocast_flags["cache"] = self.prev_cache_enabled
        autocast_decrement_nesting()
        return False

    def __call__(self, func):
        def decorated(*args, **kwargs):
            with autocast(self.device, self.fast_dtype, self._enabled, self._cache_enabled):
                return func(*args, **kwargs)
        decorated.__name__ = getattr(func, "__name__", "decorated")
        decorated.__wrapped__ = func
        return decorated


autocast.__module__ = "torch.amp.autocast_mode"
