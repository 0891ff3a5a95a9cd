# Complex tensors, as programs use them for rotary embeddings
# (`torch.polar`, `view_as_complex`, a product, `view_as_real`) and little
# else. A complex tensor is held as its real and imaginary parts: a float
# tensor whose last dimension is 2, exactly what `view_as_real` returns and
# what `view_as_complex` takes (the same tensor, so writes through one are
# seen through the other, as PyTorch's views are). Every op on a complex
# tensor is real ops on those parts, so it runs where they are (the TPU
# device), fuses, and carries gradients like any other. What it supports:
# the constructors above and `torch.complex`, `torch.tensor` of Python
# complex numbers, `zeros`/`ones` with a complex dtype; `+ - * /` with
# complex, real tensors and numbers; `abs`, `angle`, `conj`, `exp`, `real`,
# `imag`, `sum`, `mean`; views and indexing over its dimensions; `to`,
# `clone`, `detach`, `tolist`, `item`; PyTorch's printing. Any other op on a
# complex tensor raises NotImplementedError naming it.


class _ComplexDType:
    def __init__(self, name, real, itemsize):
        self._name = name
        self._real = real
        self.itemsize = itemsize

    def __repr__(self):
        return "torch." + self._name

    is_complex = True
    is_floating_point = False
    is_signed = True

    def to_real(self):
        return self._real

    def to_complex(self):
        return self


complex64 = _ComplexDType("complex64", float32, 8)
complex128 = _ComplexDType("complex128", float64, 16)
cfloat = complex64
cdouble = complex128


def _complex_of(real_dtype):
    return complex128 if real_dtype == float64 else complex64


class _ComplexTensor(Tensor):
    def __init__(self, pairs, fn=None):
        self._pairs = pairs
        self._fn = fn

    # What it says about itself.
    @property
    def shape(self):
        return Size(list(self._pairs.shape)[:-1])

    @property
    def dtype(self):
        return _complex_of(self._pairs.dtype)

    @property
    def device(self):
        return self._pairs.device

    @property
    def ndim(self):
        return self._pairs.ndim - 1

    @property
    def requires_grad(self):
        return self._pairs.requires_grad

    @property
    def is_leaf(self):
        return self._pairs.is_leaf

    @property
    def grad_fn(self):
        return self._pairs.grad_fn

    @property
    def grad(self):
        g = self._pairs.grad
        return None if g is None else _ComplexTensor(g)

    @property
    def real(self):
        return self._pairs[..., 0]

    @property
    def imag(self):
        return self._pairs[..., 1]

    @property
    def data(self):
        return _ComplexTensor(self._pairs.detach())

    @property
    def is_cuda(self):
        return False

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return self.ndim

    def numel(self):
        return self._pairs.numel() // 2

    def element_size(self):
        return self.dtype.itemsize

    def is_complex(self):
        return True

    def is_floating_point(self):
        return False

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        return iter([self[i] for i in range(len(self))])

    def __repr__(self, *, tensor_contents=None):
        suffixes = []
        if self._pairs.requires_grad:
            if self._pairs.grad_fn is None:
                suffixes.append("requires_grad=True")
            else:
                suffixes.append("grad_fn=<" + (self._fn or "ViewAsComplexBackward0") + ">")
        return _C.complex_repr(self._pairs, self._pairs.dtype == float64, suffixes)

    __str__ = __repr__

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return _py_bool(self.item())

    def item(self):
        return _py_complex(self._pairs[..., 0].item(), self._pairs[..., 1].item())

    def tolist(self):
        def build(pairs):
            if isinstance(pairs[0], list):
                return [build(p) for p in pairs]
            return _py_complex(pairs[0], pairs[1])
        return build(self._pairs.tolist())

    # Views and copies: over every dimension but the parts'.
    def _dims(self, dims):
        n = self.ndim
        return [d + n if d < 0 else d for d in dims]

    def view(self, *shape):
        return _ComplexTensor(self._pairs.view(*_flat_sizes(shape), 2), "ViewBackward0")

    def reshape(self, *shape):
        return _ComplexTensor(self._pairs.reshape(*_flat_sizes(shape), 2), "ViewBackward0")

    def flatten(self, start_dim=0, end_dim=-1):
        if self.ndim == 0:
            return self.reshape(1)
        s, e = self._dims([start_dim, end_dim])
        shape = list(self.shape)
        n = 1
        for k in shape[s:e + 1]:
            n *= k
        return self.reshape(shape[:s] + [n] + shape[e + 1:])

    def unsqueeze(self, dim):
        d = dim + self.ndim + 1 if dim < 0 else dim
        return _ComplexTensor(self._pairs.unsqueeze(d), "UnsqueezeBackward0")

    def squeeze(self, dim=None):
        if dim is None:
            dims = [i for i, k in enumerate(self.shape) if k == 1]
        else:
            dims = self._dims(list(dim) if isinstance(dim, (list, tuple)) else [dim])
        pairs = self._pairs
        for d in sorted(dims, reverse=True):
            if pairs.shape[d] == 1:
                pairs = pairs.squeeze(d)
        return _ComplexTensor(pairs, "SqueezeBackward1")

    def permute(self, *dims):
        dims = self._dims(_flat_sizes(dims))
        return _ComplexTensor(self._pairs.permute(*dims, self.ndim), "PermuteBackward0")

    def transpose(self, dim0, dim1):
        d0, d1 = self._dims([dim0, dim1])
        return _ComplexTensor(self._pairs.transpose(d0, d1), "TransposeBackward0")

    def expand(self, *sizes):
        return _ComplexTensor(self._pairs.expand(*_flat_sizes(sizes), 2), "ExpandBackward0")

    def expand_as(self, other):
        return self.expand(list(other.shape))

    def contiguous(self, memory_format=None):
        return _ComplexTensor(self._pairs.contiguous(), self._fn)

    def clone(self, memory_format=None):
        return _ComplexTensor(self._pairs.clone(), "CloneBackward0")

    def detach(self):
        return _ComplexTensor(self._pairs.detach())

    def requires_grad_(self, requires_grad=True):
        self._pairs.requires_grad_(requires_grad)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.pop("dtype", None)
        rest = []
        for a in args:
            if isinstance(a, _ComplexDType) or isinstance(a, dtype_type):
                dtype = a
            else:
                rest.append(a)
        pairs = self._pairs.to(*rest, **kwargs) if rest or kwargs else self._pairs
        if dtype is not None:
            if not isinstance(dtype, _ComplexDType):
                raise NotImplementedError("converting a complex tensor to " + str(dtype)
                                          + " is not supported here (take .real or .abs())")
            pairs = pairs.to(dtype.to_real())
        return self if pairs is self._pairs else _ComplexTensor(pairs, "ToCopyBackward0")

    def cpu(self):
        return self.to("cpu")

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        return _ComplexTensor(self._pairs[index + (slice(None),)], "SelectBackward0")

    def __setitem__(self, index, value):
        if not isinstance(index, tuple):
            index = (index,)
        re, im = _parts(value)
        self._pairs[index + (0,)] = re
        self._pairs[index + (1,)] = im

    # Arithmetic, on the parts.
    def __add__(self, other):
        return _complex_binary("add", self, other)

    def __radd__(self, other):
        return _complex_binary("add", other, self)

    def __sub__(self, other):
        return _complex_binary("sub", self, other)

    def __rsub__(self, other):
        return _complex_binary("sub", other, self)

    def __mul__(self, other):
        return _complex_binary("mul", self, other)

    def __rmul__(self, other):
        return _complex_binary("mul", other, self)

    def __truediv__(self, other):
        return _complex_binary("div", self, other)

    def __rtruediv__(self, other):
        return _complex_binary("div", other, self)

    def __neg__(self):
        return _ComplexTensor(-self._pairs, "NegBackward0")

    def __pos__(self):
        return self

    def __eq__(self, other):
        re, im = _parts(other)
        return (self._pairs[..., 0] == re) & (self._pairs[..., 1] == im)

    def __ne__(self, other):
        return (self == other).logical_not()

    __hash__ = Tensor.__hash__

    add = __add__
    sub = __sub__
    mul = __mul__
    div = __truediv__
    neg = __neg__

    def abs(self):
        return (self._pairs * self._pairs).sum(-1).sqrt()

    def angle(self):
        return atan2(self._pairs[..., 1], self._pairs[..., 0])

    def conj(self):
        return _ComplexTensor(stack([self._pairs[..., 0], -self._pairs[..., 1]], -1), "ConjBackward0")

    conj_physical = conj

    def resolve_conj(self):
        return self

    def is_conj(self):
        return False

    def exp(self):
        scale = self._pairs[..., 0].exp()
        angle = self._pairs[..., 1]
        return _ComplexTensor(stack([scale * angle.cos(), scale * angle.sin()], -1), "ExpBackward0")

    def sum(self, dim=None, keepdim=False, dtype=None):
        if dim is None:
            return _ComplexTensor(self._pairs.reshape(-1, 2).sum(0), "SumBackward0")
        dims = self._dims(list(dim) if isinstance(dim, (list, tuple)) else [dim])
        return _ComplexTensor(self._pairs.sum(dims, keepdim=keepdim), "SumBackward1")

    def mean(self, dim=None, keepdim=False, dtype=None):
        if dim is None:
            return _ComplexTensor(self._pairs.reshape(-1, 2).mean(0), "MeanBackward0")
        dims = self._dims(list(dim) if isinstance(dim, (list, tuple)) else [dim])
        return _ComplexTensor(self._pairs.mean(dims, keepdim=keepdim), "MeanBackward1")

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        raise RuntimeError("grad can be implicitly created only for real scalar outputs")

    @staticmethod
    def __tpu_dispatch__(name, args):
        # A primitive reached through torch's functions (torch.mul(x, c),
        # torch.cat of complex tensors): the ones complex tensors have.
        if name == "binary" and args[0] in ("add", "sub", "mul", "div"):
            return _complex_binary(args[0], args[1], args[2])
        if name == "unary" and args[0] in ("neg", "exp", "abs"):
            return getattr(args[1], args[0])()
        if name == "cat":
            items, dim = list(args[0]), args[1]
            pairs = [c._pairs if isinstance(c, _ComplexTensor) else stack([c, zeros_like(c)], -1) for c in items]
            nd = pairs[0].ndim - 1
            return _ComplexTensor(cat(pairs, dim + nd if dim < 0 else dim), "CatBackward0")
        if name in ("is_contiguous", "same_storage"):
            return getattr(_C, name)(*[a._pairs if isinstance(a, _ComplexTensor) else a for a in args])
        if name == "is_parameter":
            return False
        if name == "grad":
            return args[0].grad
        what = args[0] if name in ("unary", "binary", "compare") and isinstance(args[0], str) else name
        raise NotImplementedError("complex tensors are supported here for rotary embeddings and "
                                  "little else: " + str(what) + " of a complex tensor is not supported yet")


dtype_type = _py_type(float32)


def _flat_sizes(sizes):
    if len(sizes) == 1 and isinstance(sizes[0], (list, tuple, Size)):
        return list(sizes[0])
    return list(sizes)


def _parts(x):
    # The real and imaginary parts of a complex tensor, a real tensor or a
    # number; a part that is zero is the number 0.0.
    if isinstance(x, _ComplexTensor):
        return x._pairs[..., 0], x._pairs[..., 1]
    if isinstance(x, _py_complex):
        return x.real, x.imag
    if isinstance(x, Tensor):
        if x.dtype == bool or not x.is_floating_point():
            x = x.to(float32)
        return x, 0.0
    return _py_float(x), 0.0


def _zero(x):
    return isinstance(x, _py_float) and x == 0.0


def _complex_binary(op, a, b):
    ar, ai = _parts(a)
    br, bi = _parts(b)
    if op == "add":
        re, im = ar + br, ai + bi
    elif op == "sub":
        re, im = ar - br, ai - bi
    elif op == "mul":
        if _zero(bi):
            re, im = ar * br, ai * br
        elif _zero(ai):
            re, im = ar * br, ar * bi
        else:
            re, im = ar * br - ai * bi, ar * bi + ai * br
    elif op == "div":
        if _zero(bi):
            re, im = ar / br, ai / br
        else:
            d = br * br + bi * bi
            re, im = (ar * br + ai * bi) / d, (ai * br - ar * bi) / d
    else:
        raise NotImplementedError(op + " of a complex tensor is not supported yet")
    shape_of = [t for t in (ar, ai, br, bi) if isinstance(t, Tensor)]
    like = shape_of[0]
    re = re if isinstance(re, Tensor) else full_like(like, re)
    im = im if isinstance(im, Tensor) else full_like(like, im)
    re, im = broadcast_tensors(re, im)
    names = {"add": "AddBackward0", "sub": "SubBackward0", "mul": "MulBackward0", "div": "DivBackward0"}
    return _ComplexTensor(stack([re, im], -1), names[op])


def view_as_complex(input):
    if isinstance(input, _ComplexTensor):
        raise RuntimeError("view_as_complex is only supported for floating point tensors, but got a tensor of "
                           "scalar type: " + _scalar_name(input.dtype))
    if input.dtype not in (float32, float64):
        raise RuntimeError("view_as_complex is only supported for float and double tensors, but got a tensor of "
                           "scalar type: " + _scalar_name(input.dtype))
    if input.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if input.stride()[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if _py_any(s % 2 for s in input.stride()[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    return _ComplexTensor(input, "ViewAsComplexBackward0")


def view_as_real(input):
    if not isinstance(input, _ComplexTensor):
        raise TypeError("view_as_real is only supported for complex tensors")
    return input._pairs


def _scalar_name(dtype):
    names = {float16: "Half", bfloat16: "BFloat16", int64: "Long", int32: "Int", uint8: "Byte", bool: "Bool"}
    if isinstance(dtype, _ComplexDType):
        return "ComplexDouble" if dtype is complex128 else "ComplexFloat"
    return names.get(dtype, str(dtype))


def polar(abs, angle):
    if abs.dtype != angle.dtype or abs.dtype not in (float32, float64):
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           + _scalar_name(abs.dtype) + " and " + _scalar_name(angle.dtype))
    re, im = broadcast_tensors(abs * angle.cos(), abs * angle.sin())
    return _ComplexTensor(stack([re, im], -1), "PolarBackward0")


def complex(real, imag):
    if real.dtype != imag.dtype or real.dtype not in (float32, float64):
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           + _scalar_name(real.dtype) + " and " + _scalar_name(imag.dtype))
    re, im = broadcast_tensors(real, imag)
    return _ComplexTensor(stack([re, im], -1), "ComplexBackward0")


def is_complex(input):
    return isinstance(input, _ComplexTensor)


_real_zeros = zeros
_real_ones = ones


def _complex_tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    # `torch.tensor` of Python complex numbers, or with a complex dtype
    # (torch_c.rs's `tensor` hands those here).
    real_dtype = dtype.to_real() if isinstance(dtype, _ComplexDType) else float32

    def pairs(d):
        if isinstance(d, (list, tuple)):
            return [pairs(x) for x in d]
        if isinstance(d, _ComplexTensor):
            return d._pairs.tolist()
        c = d if isinstance(d, _py_complex) else _py_float(d)
        return [c.real, c.imag] if isinstance(c, _py_complex) else [c, 0.0]
    out = _ComplexTensor(tensor(pairs(data), dtype=real_dtype, device=device))
    return out.requires_grad_(True) if requires_grad else out


def zeros(*size, dtype=None, device=None, requires_grad=False):
    if isinstance(dtype, _ComplexDType):
        return _ComplexTensor(_real_zeros(*_flat_sizes(size), 2, dtype=dtype.to_real(), device=device,
                                          requires_grad=requires_grad))
    return _real_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    if isinstance(dtype, _ComplexDType):
        pairs = _real_zeros(*_flat_sizes(size), 2, dtype=dtype.to_real(), device=device)
        pairs[..., 0] = 1.0
        return _ComplexTensor(pairs.requires_grad_(requires_grad))
    return _real_ones(*size, dtype=dtype, device=device, requires_grad=requires_grad)
