# Run at the end of the `torch` package's body, in its namespace: what PyTorch
# does in C++ for tensors. Tensors made by torch._C are instances of `Tensor`
# from here on.

_C._set_tensor_class(Tensor)

# `print` breaks a graph under torch.compile (Dynamo cannot trace it).
import builtins as _builtins
_C._py_print = _builtins.print
_builtins.print = _C._print
del _builtins


class DistStopped(BaseException):
    # What a rank's wait ends in when the run of ranks is stopped (a
    # deadlock, a failed rank): not an Exception, so `except Exception`
    # does not keep the rank going (crates/tpu-torch/src/distributed.rs).
    __module__ = "torch.distributed"


_C.DistStopped = DistStopped
del DistStopped


class Size(tuple):
    # torch.Size: a tuple of ints that prints as PyTorch prints it.
    def __repr__(self):
        return "torch.Size([" + ", ".join(_py_repr(d) for d in self) + "])"

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        return Size(item) if _py_isinstance(index, slice) else item

    def __add__(self, other):
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


def _shape(self):
    return Size(self._dims())


Tensor.shape = property(_shape)
Tensor.size = lambda self, dim=None: Size(self._dims()) if dim is None else self._dims()[dim]


def _operand(other):
    # What an operator takes beside a tensor; anything else is left to the
    # other operand's reflected method, as Python's protocol says.
    return _py_isinstance(other, (Tensor, _py_int, _py_float, _py_bool))


def _binary(op, reflected=False):
    # A Python complex number beside a real tensor makes a complex tensor
    # (`_complex.py`).
    if reflected:
        def method(self, other):
            if _operand(other):
                return _C.binary(op, other, self)
            if op != "pow" and _py_isinstance(other, _py_complex):
                return _complex_binary(op, other, self)
            return NotImplemented
    else:
        def method(self, other):
            if _operand(other):
                return _C.binary(op, self, other)
            if op != "pow" and _py_isinstance(other, _py_complex):
                return _complex_binary(op, self, other)
            return NotImplemented
    return method


for _op, _dunder in [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv"), ("pow", "pow")]:
    _py_setattr(Tensor, "__" + _dunder + "__", _binary(_op))
    _py_setattr(Tensor, "__r" + _dunder + "__", _binary(_op, reflected=True))
Tensor.__matmul__ = lambda self, other: _C.matmul(self, other) if _py_isinstance(other, Tensor) else NotImplemented
Tensor.__rmatmul__ = lambda self, other: _C.matmul(other, self) if _py_isinstance(other, Tensor) else NotImplemented
del _op, _dunder, _shape


# ---- What PyTorch does in C++ for tensors ----

def _method_unary(name):
    return lambda self: _C.unary(name, self)


for _name in ["abs", "neg", "relu", "exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos",
              "erf", "floor", "ceil", "sign"]:
    if _name not in Tensor.__dict__:
        _py_setattr(Tensor, _name, _method_unary(_name))


def _cast_to(dtype):
    return lambda self: _C.cast(self, dtype)


for _name, _dtype in [("float", float32), ("double", float64), ("bfloat16", bfloat16), ("half", float16),
                      ("long", int64), ("int", int32), ("byte", uint8), ("bool", bool)]:
    _py_setattr(Tensor, _name, _cast_to(_dtype))


def _to(self, *args, **kwargs):
    dtype = kwargs.pop("dtype", None)
    target = args[0] if args else kwargs.pop("device", None)
    kwargs.pop("non_blocking", None)
    kwargs.pop("copy", None)
    if target is None:
        if dtype is None:
            raise TypeError("to() received an invalid combination of arguments")
        target = dtype
    if _py_isinstance(target, dtype_class):
        device_, dtype = self.device, target
    elif _py_isinstance(target, Tensor):
        device_, dtype = target.device, target.dtype
    else:
        device_ = target
        if dtype is None and _py_len(args) > 1 and _py_isinstance(args[1], dtype_class):
            dtype = args[1]
    moved = _C.to_device(self, device_)
    return moved if dtype is None else _C.cast(moved, dtype)


dtype_class = dtype
Tensor.to = _to


def _cpu(self):
    _C._sync_reason(".cpu()")
    return _C.to_device(self, "cpu")


Tensor.cpu = _cpu
Tensor.tolist = lambda self: _C.tolist(self)
Tensor.grad_fn = property(lambda self: None if self._grad_fn_name is None
                          else _grad_fn_object(self._grad_fn_name))
Tensor.T = property(lambda self: _C.permute(self, _py_list(_py_range(self.dim() - 1, -1, -1))))
Tensor.mT = property(lambda self: _C.transpose(self, -2, -1))
Tensor.is_cuda = property(lambda self: False)
Tensor.is_cpu = property(lambda self: self.device.type == "cpu")
Tensor.is_meta = property(lambda self: self.device.type == "meta")
# Devices and layouts this project never has: a tensor is on the CPU, the
# TPU or the meta device, dense and strided.
for _flag in ("is_ipu", "is_maia", "is_mkldnn", "is_mps", "is_mtia", "is_nested", "is_quantized",
              "is_sparse", "is_sparse_csr", "is_vulkan", "is_xla", "is_xpu"):
    setattr(Tensor, _flag, property(lambda self: False))
del _flag


def _compare(op, flipped):
    def compare(self, other):
        if _py_isinstance(other, Tensor):
            return _C.compare(op, self, other)
        if _py_isinstance(other, (_py_int, _py_float, _py_bool)):
            return _C.compare(op, self, other)
        return NotImplemented
    return compare


for _op, _dunder in [("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"), ("gt", "gt"), ("ge", "ge")]:
    _py_setattr(Tensor, "__" + _dunder + "__", _compare(_op, None))
Tensor.__hash__ = lambda self: id(self)


def _lacking(self, name):
    # Only reached when the attribute is missing: a Tensor attribute PyTorch
    # has and this project lacks is a NotImplementedError naming it.
    if _C._lacks("Tensor", name):
        raise NotImplementedError("Tensor." + name + " is not supported yet (it is part of PyTorch 2.15, but not of this playground)")
    raise AttributeError("'" + _py_type(self).__name__ + "' object has no attribute '" + name + "'")


Tensor.__getattr__ = _lacking
Tensor.__neg__ = lambda self: _C.unary("neg", self)
Tensor.__pos__ = lambda self: self
Tensor.__abs__ = lambda self: _C.unary("abs", self)


def _truth(self):
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return _py_bool(self._item_as("a Python condition reads a tensor"))


Tensor.__bool__ = _truth
def _scalar(self):
    if self.numel() != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    return self.item()


Tensor.__float__ = lambda self: _py_float(_scalar(self))
Tensor.__int__ = lambda self: _py_int(_scalar(self))


def _index(self):
    if self.dtype.is_floating_point or self.numel() != 1:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return _py_int(self.item())


Tensor.__index__ = _index


def _format(self, spec):
    # PyTorch formats a 0-d tensor as its value, anything else as repr.
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


def _deepcopy(self, memo):
    if id(self) in memo:
        return memo[id(self)]
    out = _C.clone(self).detach()
    if self.is_parameter():
        out = _py_type(self)(out, self.requires_grad)
    else:
        out.requires_grad_(self.requires_grad)
    memo[id(self)] = out
    return out


Tensor.__format__ = _format
Tensor.__deepcopy__ = _deepcopy
Tensor.is_parameter = lambda self: _C.is_parameter(self)
# The in-place writes the tensor's storage has had (PyTorch's version counter).
Tensor._version = property(lambda self: _C.version(self))


def _len(self):
    if self.dim() == 0:
        raise TypeError("len() of a 0-d tensor")
    return self._dims()[0]


Tensor.__len__ = _len
Tensor.__iter__ = lambda self: _py_iter([_C.select(self, 0, i) for i in _py_range(_py_len(self))])
del _name, _dtype, _op, _dunder, _method_unary, _cast_to, _compare, _truth, _index, _len, _to, _format, _deepcopy
Tensor.__getitem__ = lambda self, index: self._index(index)
Tensor.__setitem__ = lambda self, index, value: self._index_put(index, value)

for _op, _dunder in [("floor_divide", "floordiv"), ("remainder", "mod")]:
    _py_setattr(Tensor, "__" + _dunder + "__", _binary(_op))
    _py_setattr(Tensor, "__r" + _dunder + "__", _binary(_op, reflected=True))


def _logical(op, self, other):
    # `&`, `|`, `^` on two bool tensors; bitwise_* (the prelude's) otherwise.
    if (_py_isinstance(other, Tensor) and self.dtype == bool and other.dtype == bool):
        xi, yi = _C.cast(self, int64), _C.cast(other, int64)
        if op == "and":
            combined = _C.binary("mul", xi, yi)
        elif op == "or":
            combined = _C.binary("add", xi, yi)
        else:
            combined = _C.unary("abs", _C.binary("sub", xi, yi))
        return _C.compare("ne", combined, 0)
    return {"and": bitwise_and, "or": bitwise_or, "xor": bitwise_xor}[op](self, other)


def _same_shape(self, result):
    if result.shape != self.shape:
        raise RuntimeError("output with shape [" + ", ".join(_py_str(d) for d in self.shape)
                           + "] doesn't match the broadcast shape ["
                           + ", ".join(_py_str(d) for d in result.shape) + "]")
    return result


def _inplace(op):
    # `t += b`: computed out of place, cast back to `t`'s dtype (refused from
    # float into an integer tensor) and written into `t`'s storage. The result
    # goes to `assign` as a temporary, so `t` takes its storage rather than a
    # copy (crates/tpu-torch/src/natives.rs, `take_temporary`).
    def update(self, other):
        if not _operand(other):
            return NotImplemented
        _C.assign(self, _same_shape(self, _C.binary(op, self, other)))
        return self
    return update


for _op, _dunder in [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv"),
                     ("pow", "pow"), ("floor_divide", "floordiv"), ("remainder", "mod")]:
    _py_setattr(Tensor, "__i" + _dunder + "__", _inplace(_op))
Tensor.__lshift__ = lambda self, other: bitwise_left_shift(self, other)
Tensor.__rshift__ = lambda self, other: bitwise_right_shift(self, other)
Tensor.__and__ = lambda self, other: _logical("and", self, other)
Tensor.__or__ = lambda self, other: _logical("or", self, other)
Tensor.__xor__ = lambda self, other: _logical("xor", self, other)
Tensor.__rand__ = lambda self, other: _logical("and", self, other)
Tensor.__ror__ = lambda self, other: _logical("or", self, other)
Tensor.__rxor__ = lambda self, other: _logical("xor", self, other)
Tensor.__invert__ = lambda self: _C.compare("eq", self, 0) if self.dtype == bool else bitwise_not(self)


# The elementwise `torch` functions.
def _torch_unary(name):
    def function(input, *, out=None):
        return _out(out, _py_getattr(input, name)())
    function.__name__ = name
    function.__qualname__ = name
    return function


for _name in ["abs", "neg", "relu", "exp", "log", "sqrt", "tanh", "sigmoid", "sin", "cos"]:
    globals()[_name] = _torch_unary(_name)


# Grad-mode context managers, usable as decorators with or without ().
_inference = [False]


class _GradMode:
    _enabled = True

    def __new__(cls, orig_func=None):
        self = object.__new__(cls)
        if orig_func is not None and callable(orig_func):
            return self(orig_func)
        return self

    def __enter__(self):
        self._prev = _C.set_grad_enabled(self._enabled)

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev)
        return False

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradMode):
    _enabled = False


class enable_grad(_GradMode):
    _enabled = True


class inference_mode:
    # Inference tensors are not modelled: the grad mode it implies, and the
    # flag is_inference_mode_enabled() reads.
    def __init__(self, mode=True):
        self.mode = mode if _py_isinstance(mode, _py_bool) else True
        self._func = None if _py_isinstance(mode, _py_bool) else mode

    def __new__(cls, mode=True):
        self = object.__new__(cls)
        if not _py_isinstance(mode, _py_bool):
            self.__init__(True)
            return self(mode)
        return self

    def __enter__(self):
        self._prev = (_C.set_grad_enabled(not self.mode), _inference[0])
        _inference[0] = self.mode

    def __exit__(self, *exc):
        _C.set_grad_enabled(self._prev[0])
        _inference[0] = self._prev[1]
        return False

    def __call__(self, func):
        import functools
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return func(*args, **kwargs)
        return wrapper


def is_inference_mode_enabled():
    return _inference[0]


del _op, _dunder, _name, _torch_unary, _binary, _inplace
