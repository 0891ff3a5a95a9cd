# numpy: the small part of it that training scripts use beside torch, over
# torch's CPU tensors. NumPy itself is C and does not run here. What is here:
# `array`/`asarray` (of lists, scalars and tensors), `ndarray` with `shape`,
# `dtype`, `ndim`, `size`, indexing, comparisons and arithmetic (NumPy's
# promotion: integers divided, or mixed with a Python float, give float64),
# `astype`, `tolist`, `item`, `copy`, `reshape`, `sum`/`mean`/`max`/`min`/
# `argmax`/`argmin`; `where` with one or three arguments, `arange`, `zeros`,
# `ones`, `concatenate`, `stack`; the dtypes the tensors here have (bool,
# uint8, int32, int64, float32, float64) and their scalar types whose repr is NumPy 2's
# (`np.int64(3)`); `random.seed`; `torch.from_numpy` and `Tensor.numpy()`.
# Everything else raises NotImplementedError naming itself, as does printing
# an array of floats (NumPy's float formatting is not reproduced).
import builtins as _b
import torch as _torch


class dtype:
    def __init__(self, name, torch_dtype, scalar):
        self.name = name
        self._torch = torch_dtype
        self.type = scalar

    def __repr__(self):
        return "dtype(%r)" % self.name

    def __str__(self):
        return self.name

    def __eq__(self, other):
        try:
            return _as_dtype(other) is self
        except NotImplementedError:
            return False

    def __hash__(self):
        return hash(self.name)

    @property
    def kind(self):
        return {"bool": "b", "uint8": "u", "float32": "f", "float64": "f"}.get(self.name, "i")

    @property
    def itemsize(self):
        return self._torch.itemsize


class generic:
    """The base of NumPy's scalar types."""

    def __repr__(self):
        return "np.%s(%s)" % (type(self).__name__, self._text())

    def __str__(self):
        return self._text()

    @property
    def dtype(self):
        return _DTYPES[type(self).__name__]

    def item(self):
        return self._python(self)


class number(generic):
    pass


class integer(number):
    _python = _b.int

    def _text(self):
        return _b.int.__repr__(self)


class signedinteger(integer):
    pass


class unsignedinteger(integer):
    pass


class floating(number):
    _python = _b.float

    def _text(self):
        return _b.float.__repr__(self)


class int64(signedinteger, _b.int):
    pass


class int32(signedinteger, _b.int):
    pass


class uint8(unsignedinteger, _b.int):
    pass


class float64(floating, _b.float):
    pass


class float32(floating, _b.float):
    def __new__(cls, value=0.0):
        import struct

        return _b.float.__new__(cls, struct.unpack("f", struct.pack("f", _b.float(value)))[0])

    def _text(self):
        # The shortest text that reads back as the same float32.
        import struct

        value = _b.float(self)
        if value != value or value in (float("inf"), float("-inf")):
            return _b.float.__repr__(value)
        for digits in _b.range(1, 18):
            text = "%.*g" % (digits, value)
            if struct.unpack("f", struct.pack("f", _b.float(text)))[0] == value:
                break
        if "e" not in text and "." not in text and "n" not in text:
            text += ".0"
        return text


class bool_(generic):
    _python = _b.bool

    def __init__(self, value=False):
        self._value = _b.bool(value)

    def __repr__(self):
        return "np.%s_" % self._value

    def _text(self):
        return _b.repr(self._value)

    def __bool__(self):
        return self._value

    def __eq__(self, other):
        return self._value == other

    def __hash__(self):
        return hash(self._value)

    def __index__(self):
        return _b.int(self._value)

    def item(self):
        return self._value


int_ = int64
float_ = float64
double = float64
single = float32

_DTYPES = {}
for _name, _torch_dtype, _scalar in [
    ("bool", _torch.bool, bool_),
    ("uint8", _torch.uint8, uint8),
    ("int32", _torch.int32, int32),
    ("int64", _torch.int64, int64),
    ("float32", _torch.float32, float32),
    ("float64", _torch.float64, float64),
]:
    _DTYPES[_name] = dtype(_name, _torch_dtype, _scalar)
_DTYPES["bool_"] = _DTYPES["bool"]
_BY_TORCH = {d._torch: d for d in _DTYPES.values()}
del _name, _torch_dtype, _scalar


def _as_dtype(spec):
    """The dtype that `spec` (a dtype, a scalar type, a name, a Python type)
    names."""
    if _b.isinstance(spec, dtype):
        return spec
    if spec is _b.int:
        return _DTYPES["int64"]
    if spec is _b.float:
        return _DTYPES["float64"]
    if spec is _b.bool:
        return _DTYPES["bool"]
    name = spec.__name__ if _b.isinstance(spec, type) else spec
    if _b.isinstance(name, str) and name in _DTYPES:
        return _DTYPES[name]
    raise NotImplementedError("numpy dtype %r is not in tpu-playground's numpy subset" % (spec,))


def _wrap(tensor):
    """An array of `tensor`, or NumPy's scalar of its one value where it has
    no dimensions."""
    if tensor.dim() == 0:
        return _BY_TORCH[tensor.dtype].type(tensor.item())
    return ndarray._of(tensor)


class ndarray:
    """An array over a CPU tensor (`_t`)."""

    __array_priority__ = 1000

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("numpy.ndarray() is not in tpu-playground's numpy subset: use numpy.array")

    @classmethod
    def _of(cls, tensor):
        array = object.__new__(cls)
        array._t = tensor
        return array

    @property
    def shape(self):
        return _b.tuple(self._t.shape)

    @property
    def ndim(self):
        return self._t.dim()

    @property
    def size(self):
        return self._t.numel()

    @property
    def dtype(self):
        return _BY_TORCH[self._t.dtype]

    @property
    def T(self):
        return ndarray._of(self._t.permute(*_b.reversed(_b.range(self._t.dim()))))

    def __len__(self):
        if self._t.dim() == 0:
            raise TypeError("len() of unsized object")
        return self._t.shape[0]

    def __iter__(self):
        for i in _b.range(len(self)):
            yield self[i]

    def __getitem__(self, key):
        return _wrap(self._t[_key(key)])

    def __setitem__(self, key, value):
        self._t[_key(key)] = _operand(value)

    def __bool__(self):
        if self._t.numel() != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return _b.bool(self._t.item())

    def __int__(self):
        return _b.int(self._t.item())

    def __float__(self):
        return _b.float(self._t.item())

    def __index__(self):
        if self._t.dtype.is_floating_point or self._t.numel() != 1:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return _b.int(self._t.item())

    def astype(self, dtype, copy=True):
        return ndarray._of(self._t.to(_as_dtype(dtype)._torch).clone())

    def copy(self):
        return ndarray._of(self._t.clone())

    def tolist(self):
        return self._t.tolist()

    def item(self, *args):
        if args:
            return self[args if _b.len(args) > 1 else args[0]].item()
        if self._t.numel() != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return self._t.item()

    def reshape(self, *shape):
        if _b.len(shape) == 1 and _b.isinstance(shape[0], (_b.tuple, _b.list)):
            shape = shape[0]
        return ndarray._of(self._t.reshape(*shape))

    def flatten(self):
        return ndarray._of(self._t.reshape(-1).clone())

    def ravel(self):
        return ndarray._of(self._t.reshape(-1))

    def sum(self, axis=None):
        t = self._t.to(_torch.int64) if not self._t.dtype.is_floating_point else self._t
        return _wrap(t.sum() if axis is None else t.sum(axis))

    def mean(self, axis=None):
        t = self._t if self._t.dtype.is_floating_point else self._t.to(_torch.float64)
        return _wrap(t.mean() if axis is None else t.mean(axis))

    def max(self, axis=None):
        return _wrap(self._t.max() if axis is None else self._t.amax(axis))

    def min(self, axis=None):
        return _wrap(self._t.min() if axis is None else self._t.amin(axis))

    def argmax(self, axis=None):
        return _wrap(self._t.reshape(-1).argmax() if axis is None else self._t.argmax(axis))

    def argmin(self, axis=None):
        return _wrap(self._t.reshape(-1).argmin() if axis is None else self._t.argmin(axis))

    def any(self):
        return bool_(self._t.any().item())

    def all(self):
        return bool_(self._t.all().item())

    def __repr__(self):
        return "array(%s)" % _text(self, "array(")

    def __str__(self):
        return _text(self, "", separator="")

    def __array__(self, dtype=None, copy=None):
        return self


def _key(key):
    if _b.isinstance(key, ndarray):
        return key._t
    if _b.isinstance(key, _b.tuple):
        return _b.tuple(_key(k) for k in key)
    if _b.isinstance(key, (integer, bool_)):
        return _b.int(key)
    return key


def _operand(value):
    if _b.isinstance(value, ndarray):
        return value._t
    if _b.isinstance(value, generic):
        return value.item()
    if _b.isinstance(value, (_b.list, _b.tuple)):
        return array(value)._t
    return value


def _binary(op, a, b, divides=False):
    ta, tb = _operand(a), _operand(b)
    tensors = [t for t in (ta, tb) if _b.isinstance(t, _torch.Tensor)]
    floats = _b.any(_b.isinstance(t, _b.float) for t in (ta, tb))
    if (divides or floats) and not _b.any(t.dtype.is_floating_point for t in tensors):
        ta = ta.to(_torch.float64) if _b.isinstance(ta, _torch.Tensor) else ta
        tb = tb.to(_torch.float64) if _b.isinstance(tb, _torch.Tensor) else tb
    return _wrap(op(ta, tb))


def _binary_ops():
    import operator

    names = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "floordiv": operator.floordiv,
        "mod": operator.mod,
        "pow": operator.pow,
        "eq": operator.eq,
        "ne": operator.ne,
        "lt": operator.lt,
        "le": operator.le,
        "gt": operator.gt,
        "ge": operator.ge,
        "and": operator.and_,
        "or": operator.or_,
        "xor": operator.xor,
    }
    for name, op in names.items():
        def forward(self, other, op=op):
            return _binary(op, self, other)

        setattr(ndarray, "__%s__" % name, forward)
        if name not in ("eq", "ne", "lt", "le", "gt", "ge"):
            def backward(self, other, op=op):
                return _binary(op, other, self)

            setattr(ndarray, "__r%s__" % name, backward)

    def truediv(self, other):
        return _binary(operator.truediv, self, other, divides=True)

    def rtruediv(self, other):
        return _binary(operator.truediv, other, self, divides=True)

    ndarray.__truediv__ = truediv
    ndarray.__rtruediv__ = rtruediv
    ndarray.__neg__ = lambda self: ndarray._of(-self._t)
    ndarray.__invert__ = lambda self: ndarray._of(~self._t)
    ndarray.__hash__ = None


_binary_ops()
del _binary_ops


def _text(a, prefix, separator=","):
    """NumPy's text of an array of integers or booleans; floats are not
    reproduced."""
    if a.dtype.name in ("float32", "float64"):
        raise NotImplementedError(
            "printing a numpy array of floats is not in tpu-playground's numpy subset"
        )
    values = a._t.reshape(-1).tolist()
    if a.dtype.name == "bool":
        words = [_b.repr(v) for v in values]
    else:
        words = [_b.str(v) for v in values]
    width = _b.max((_b.len(w) for w in words), default=0)
    words = [w.rjust(width) for w in words]
    shape = a.shape
    indent = " " * (_b.len(prefix) + 1)

    def nest(depth, start):
        if depth == _b.len(shape):
            return words[start]
        step = 1
        for n in shape[depth + 1:]:
            step *= n
        parts = [nest(depth + 1, start + i * step) for i in _b.range(shape[depth])]
        if depth == _b.len(shape) - 1:
            return "[" + (separator + " ").join(parts) + "]"
        joiner = separator + "\n" * (_b.len(shape) - depth - 1) + indent + " " * depth
        return "[" + joiner.join(parts) + "]"

    if not shape:
        return words[0]
    text = nest(0, 0)
    if a.size > 1000 or _b.any(_b.len(line) + _b.len(prefix) > 75 for line in text.split("\n")):
        raise NotImplementedError(
            "printing a numpy array this long (NumPy wraps and summarizes it) is not in tpu-playground's numpy subset"
        )
    if prefix and a.dtype.name not in ("int64", "bool"):
        text += ", dtype=%s" % a.dtype.name
    return text


def _infer(obj):
    """The dtype NumPy gives a nest of Python values."""
    found = set()

    def walk(x):
        if _b.isinstance(x, (_b.list, _b.tuple)):
            for y in x:
                walk(y)
        elif _b.isinstance(x, (_b.bool, bool_)):
            found.add("bool")
        elif _b.isinstance(x, (_b.int, integer)):
            found.add("int64")
        elif _b.isinstance(x, (_b.float, floating)):
            found.add("float64")
        else:
            raise NotImplementedError(
                "numpy.array of %s is not in tpu-playground's numpy subset" % type(x).__name__
            )

    walk(obj)
    for name in ("float64", "int64", "bool"):
        if name in found:
            return _DTYPES[name]
    return _DTYPES["float64"]


def _plain(obj):
    if _b.isinstance(obj, (_b.list, _b.tuple)):
        return [_plain(x) for x in obj]
    if _b.isinstance(obj, generic):
        return obj.item()
    return obj


def array(object, dtype=None, copy=True, ndmin=0):
    if _b.isinstance(object, ndarray):
        t = object._t
    elif _b.isinstance(object, _torch.Tensor):
        if object.device.type != "cpu":
            raise TypeError(
                "can't convert %s device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
                % object.device
            )
        if object.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        t = object
    else:
        kind = _as_dtype(dtype) if dtype is not None else _infer(object)
        t = _torch.tensor(_plain(object), dtype=kind._torch)
    if dtype is not None:
        t = t.to(_as_dtype(dtype)._torch)
    if copy:
        t = t.clone()
    while t.dim() < ndmin:
        t = t.unsqueeze(0)
    return ndarray._of(t)


def asarray(a, dtype=None):
    return array(a, dtype=dtype, copy=False)


def where(condition, x=None, y=None):
    cond = _operand(condition)
    if not _b.isinstance(cond, _torch.Tensor):
        cond = array(condition)._t
    if x is None and y is None:
        return _b.tuple(ndarray._of(i) for i in _torch.nonzero(cond.to(_torch.bool), as_tuple=True))
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    tx, ty = _operand(x), _operand(y)
    return ndarray._of(_torch.where(cond.to(_torch.bool), _torch.as_tensor(tx), _torch.as_tensor(ty)))


def nonzero(a):
    return where(a)


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    kind = _as_dtype(dtype) if dtype is not None else _infer([start, stop, step])
    return ndarray._of(_torch.arange(start, stop, step, dtype=kind._torch))


def _shape(shape):
    return (shape,) if _b.isinstance(shape, _b.int) else _b.tuple(shape)


def zeros(shape, dtype=float):
    return ndarray._of(_torch.zeros(_shape(shape), dtype=_as_dtype(dtype)._torch))


def ones(shape, dtype=float):
    return ndarray._of(_torch.ones(_shape(shape), dtype=_as_dtype(dtype)._torch))


def concatenate(arrays, axis=0):
    return ndarray._of(_torch.cat([asarray(a)._t for a in arrays], axis))


def stack(arrays, axis=0):
    return ndarray._of(_torch.stack([asarray(a)._t for a in arrays], axis))


def __getattr__(name):
    raise NotImplementedError("numpy.%s is not in tpu-playground's numpy subset" % name)


import numpy.random as random
