# The operations on jax values: numbers as weakly typed constants, JAX's
# promotion and broadcasting, and the unary, binary, reduction and dot
# operations that append block operations to the kernel being traced; then
# `jit`. Part of the `jax` module's body, after __init__.py (one namespace).


def _constant(x, like_dtype=None):
    """A Python number as a scalar value, weakly typed as JAX types it."""
    if isinstance(x, bool):
        d = bool_
    elif isinstance(x, int):
        d = like_dtype if like_dtype is not None and like_dtype.kind in ("i", "f") else int32
    elif isinstance(x, float):
        d = like_dtype if like_dtype is not None and like_dtype.kind == "f" else float32
    else:
        raise TypeError("unsupported operand of type " + type(x).__name__ + " in a Pallas kernel")
    return _emit({"kind": "const", "value": _number(x)}, (), d)


def _number(x):
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _value(x, like=None):
    if isinstance(x, _Value):
        return x
    if isinstance(x, (Array, torch.Tensor)):
        raise NotImplementedError(
            "an array captured from outside the kernel (pass it to pallas_call as an input)"
        )
    return _constant(x, like.dtype if like is not None else None)


def _promote(a, b):
    if a == b:
        return a
    order = {"b": 0, "i": 1, "f": 2}
    if order[a.kind] != order[b.kind]:
        return a if order[a.kind] > order[b.kind] else b
    return float32


def _broadcast_shapes(a, b):
    out = []
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise TypeError(
                "add got incompatible shapes for broadcasting: " + repr(a) + ", " + repr(b) + "."
            )
    return tuple(out)


def _cast(x, d):
    if x.dtype == d:
        return x
    return _emit({"kind": "cast", "a": x._id}, x.shape, d)


def _broadcast_to(x, shape):
    shape = tuple(shape)
    if x.shape == shape:
        return x
    _broadcast_shapes(x.shape, shape)
    return _emit({"kind": "broadcast", "a": x._id}, shape, x.dtype)


def _reshape(x, shape):
    shape = list(int(d) for d in shape)
    if -1 in shape:
        known = _numel([d for d in shape if d != -1])
        shape[shape.index(-1)] = x.size // known if known else 0
    if _numel(shape) != x.size:
        raise TypeError(
            "cannot reshape array of shape " + repr(x.shape) + " (size " + str(x.size) + ") into shape " + repr(tuple(shape))
        )
    if tuple(shape) == x.shape:
        return x
    return _emit({"kind": "reshape", "a": x._id}, shape, x.dtype)


def _transpose(x):
    if x.ndim < 2:
        return x
    if x.ndim != 2:
        raise NotImplementedError("transposing a traced value of rank " + str(x.ndim) + " (2-D only)")
    return _emit({"kind": "transpose", "a": x._id}, (x.shape[1], x.shape[0]), x.dtype)


def _operands(a, b):
    """Both operands as values of one dtype, each the result's shape or a scalar."""
    like = a if isinstance(a, _Value) else b
    a = _value(a, like)
    b = _value(b, like)
    d = _promote(a.dtype, b.dtype)
    a = _cast(a, d)
    b = _cast(b, d)
    shape = _broadcast_shapes(a.shape, b.shape)
    if a.shape != () and a.shape != shape:
        a = _broadcast_to(a, shape)
    if b.shape != () and b.shape != shape:
        b = _broadcast_to(b, shape)
    return a, b, shape


def _binary(op, a, b):
    like = a if isinstance(a, _Value) else b
    a = _value(a, like)
    b = _value(b, like)
    if op in ("div", "pow") and a.dtype.kind != "f" and b.dtype.kind != "f":
        if op == "div":
            a = _cast(a, float32)
            b = _cast(b, float32)
    a, b, shape = _operands(a, b)
    return _emit({"kind": "binary", "op": op, "a": a._id, "b": b._id}, shape, a.dtype)


def _compare(op, a, b):
    a, b, shape = _operands(a, b)
    return _emit({"kind": "compare", "op": op, "a": a._id, "b": b._id}, shape, bool_)


_FLOAT_ONLY = ("exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos", "erf")


def _unary(op, x):
    x = _value(x)
    if op in _FLOAT_ONLY and x.dtype.kind != "f":
        x = _cast(x, float32)
    return _emit({"kind": "unary", "op": op, "a": x._id}, x.shape, x.dtype)


def _where(cond, a, b):
    like = a if isinstance(a, _Value) else b if isinstance(b, _Value) else None
    cond = _value(cond)
    if cond.dtype != bool_:
        cond = _compare("ne", cond, 0)
    a = _value(a, like)
    b = _value(b, like)
    d = _promote(a.dtype, b.dtype)
    a = _cast(a, d)
    b = _cast(b, d)
    shape = _broadcast_shapes(_broadcast_shapes(cond.shape, a.shape), b.shape)
    parts = []
    for v in (cond, a, b):
        parts.append(v if v.shape == () or v.shape == shape else _broadcast_to(v, shape))
    return _emit({"kind": "where", "cond": parts[0]._id, "a": parts[1]._id, "b": parts[2]._id}, shape, d)


def _axes(x, axis):
    if axis is None:
        return list(range(x.ndim))
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    out = []
    for a in axis:
        a = int(a)
        if a < -x.ndim or a >= x.ndim:
            raise ValueError(
                "axis " + str(a) + " is out of bounds for array of dimension " + str(x.ndim)
            )
        out.append(a % x.ndim if x.ndim else 0)
    return sorted(set(out))


def _reduce(op, x, axis, keepdims):
    x = _value(x)
    axes = _axes(x, axis)
    if op == "sum" and x.dtype == bool_:
        x = _cast(x, int32)
    shape = []
    for i, d in enumerate(x.shape):
        if i in axes:
            if keepdims:
                shape.append(1)
        else:
            shape.append(d)
    if not axes:
        return x
    return _emit({"kind": "reduce", "op": op, "a": x._id, "axes": axes, "keepdims": bool(keepdims)}, shape, x.dtype)


def _mean(x, axis, keepdims):
    x = _value(x)
    axes = _axes(x, axis)
    count = 1
    for a in axes:
        count *= x.shape[a]
    # Like `jnp.mean`: integers become float32, bfloat16 is computed in float32.
    wide = _cast(x, float32)
    out = _reduce("sum", wide, axis, keepdims) / float(count)
    return _cast(out, x.dtype) if x.dtype == bfloat16 else out


def _dot(a, b, preferred_element_type):
    a = _value(a)
    b = _value(b)
    if a.ndim != 2 or b.ndim != 2:
        raise NotImplementedError(
            "jnp.dot of shapes " + repr(a.shape) + " and " + repr(b.shape) + " in a Pallas kernel (2-D blocks only)"
        )
    if a.shape[1] != b.shape[0]:
        raise TypeError(
            "dot_general requires contracting dimensions to have the same shape, got ("
            + str(a.shape[1]) + ",) and (" + str(b.shape[0]) + ",)."
        )
    d = _promote(a.dtype, b.dtype)
    if d.kind != "f":
        raise NotImplementedError("jnp.dot of integer blocks in a Pallas kernel")
    a = _cast(a, d)
    b = _cast(b, d)
    out = d if preferred_element_type is None else _dtype(preferred_element_type)
    return _emit({"kind": "dot", "a": a._id, "b": b._id}, (a.shape[0], b.shape[1]), out)


def _full(shape, value, dtype):
    if isinstance(shape, int):
        shape = (shape,)
    d = _dtype(dtype) if dtype is not None else None
    v = _value(value) if isinstance(value, _Value) else _constant(value, d)
    if d is not None:
        v = _cast(v, d)
    return _broadcast_to(v, tuple(shape))


def jit(fun=None, **options):
    """`jax.jit`: the function itself (a `pallas_call` compiles its kernel anyway)."""
    if fun is None:
        return lambda f: f
    return fun

