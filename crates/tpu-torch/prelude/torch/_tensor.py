# The `Tensor` class's methods written in Python, on top of torch._C (Rust), and
# the helpers they share with the torch functions. The first part of the `torch`
# module's body (see __init__.py; one namespace), so a method can call any torch
# function and the other way round.


def _sizes(size, name):
    # zeros(2, 3), zeros((2, 3)), zeros([2, 3]) and zeros(torch.Size([2, 3])).
    if _py_len(size) == 1 and not _py_isinstance(size[0], _py_int):
        return tuple(size[0])
    return size


def _no_generator(generator, function):
    if generator is not None:
        raise NotImplementedError(function + "(generator=...) is not supported yet: "
                                  "random values come from the default generator")


def _named(out, grad_fn):
    # A composite's result takes the `grad_fn` name of the one ATen op
    # PyTorch runs for it (the inventory records them).
    _C.rename_grad_fn(out, grad_fn)
    return out


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


# Callbacks queued for the end of the current backward pass, run in order
# (`Variable._execution_engine.queue_callback` in PyTorch).
_backward_callbacks = []
# Callbacks run as a backward pass starts, before any gradient is computed:
# FSDP2's all-gathers of the parameters resharded after forward.
_backward_pre_callbacks = []


class Tensor(_TensorBase):
    # Methods of tensor objects that are written in Python. Its base is the
    # native tensor type (`torch._C._TensorBase`, crates/tpu-torch), and
    # tensors are instances of this class.

    def __reduce_ex__(self, proto):
        # Pickled outside torch.save (torch.multiprocessing's arguments), as
        # PyTorch pickles a tensor: rebuilt from a storage that pickles as a
        # nested checkpoint (torch/serialization.py).
        from torch import nn, serialization
        if isinstance(self, nn.Parameter):
            return serialization._reduce_parameter(self)
        return serialization._reduce_tensor(self)

    def numpy(self, *, force=False):
        import numpy

        if self.device.type == "meta":
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first.")
        if force:
            return numpy.array(self.detach().cpu(), copy=False)
        return numpy.array(self, copy=False)

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

    def mm(self, mat2, out_dtype=None):
        return mm(self, mat2, out_dtype=out_dtype)

    def bmm(self, mat2, out_dtype=None):
        return bmm(self, mat2, out_dtype=out_dtype)

    def maximum(self, other):
        return _C.binary("maximum", self, other)

    def minimum(self, other):
        return _C.binary("minimum", self, other)

    def remainder(self, other):
        return _C.binary("remainder", self, other)

    def floor_divide(self, other):
        return _C.binary("floor_divide", self, other)

    def square(self):
        return _named(_C.binary("mul", self, self), "PowBackward0")

    def rsqrt(self):
        return _named(1.0 / _C.unary("sqrt", self), "RsqrtBackward0")

    def reciprocal(self):
        return _named(1.0 / self, "ReciprocalBackward0")

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
        if dim is not None:
            _named(out, "SumBackward1")
        return out if dtype is None else out.to(dtype)

    def mean(self, dim=None, keepdim=False, dtype=None):
        x = self if dtype is None else self.to(dtype)
        return _C.mean(x, _dims(dim), keepdim)

    def prod(self, dim=None, keepdim=False, dtype=None):
        out = _named(_C.prod(self, dim, keepdim), "ProdBackward0" if dim is None else "ProdBackward1")
        return out if dtype is None else out.to(dtype)

    def max(self, dim=None, keepdim=False, other=None):
        if other is not None:
            dim = other
        if dim is None:
            return _C.extremum_all(self, True)
        if _py_isinstance(dim, Tensor):
            return _C.binary("maximum", self, dim)
        values, indices = _C.extremum_dim(self, dim, keepdim, True)
        return _ReturnType("max", _named(values, "MaxBackward0"), indices)

    def min(self, dim=None, keepdim=False, other=None):
        if other is not None:
            dim = other
        if dim is None:
            return _C.extremum_all(self, False)
        if _py_isinstance(dim, Tensor):
            return _C.binary("minimum", self, dim)
        values, indices = _C.extremum_dim(self, dim, keepdim, False)
        return _ReturnType("min", _named(values, "MinBackward0"), indices)

    def amax(self, dim=(), keepdim=False):
        if dim is None or dim == () or dim == []:
            return _C.extremum_all(self, True)
        out = self
        for d in sorted([d % _py_max(self.dim(), 1) for d in _dims(dim)], reverse=True):
            out = _C.extremum_dim(out, d, keepdim, True, False)[0]
        return _named(out, "AmaxBackward0")

    def amin(self, dim=(), keepdim=False):
        if dim is None or dim == () or dim == []:
            return _C.extremum_all(self, False)
        out = self
        for d in sorted([d % _py_max(self.dim(), 1) for d in _dims(dim)], reverse=True):
            out = _C.extremum_dim(out, d, keepdim, False, False)[0]
        return _named(out, "AminBackward0")

    def argmax(self, dim=None, keepdim=False):
        return _C.arg_extremum(self, dim, keepdim, True)

    def argmin(self, dim=None, keepdim=False):
        return _C.arg_extremum(self, dim, keepdim, False)

    def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return var(self, dim, unbiased=unbiased, keepdim=keepdim, correction=correction)

    def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return std(self, dim, unbiased=unbiased, keepdim=keepdim, correction=correction)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return norm(self, p, dim, keepdim, dtype=dtype)

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
        return _named(_C.transpose(self, 0, 1), "TBackward0")

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
        known = 1
        for size in sizes:
            if size != -1:
                known *= size
        if (-1 in sizes and (known == 0 or dims[d] % known != 0)) or (-1 not in sizes and known != dims[d]):
            raise RuntimeError("unflatten: Provided sizes " + str(list(sizes)) + " don't multiply up to the size of dim "
                               + str(d) + " (" + str(dims[d]) + ") in the input tensor")
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
        return _C.detach_(self)

    def split(self, split_size, dim=0):
        return split(self, split_size, dim)

    def chunk(self, chunks, dim=0):
        return chunk(self, chunks, dim)

    def unbind(self, dim=0):
        return unbind(self, dim)

    def narrow(self, dim, start, length):
        n = self.shape[dim]
        if start < -n or start > n:
            raise IndexError("start out of range (expected to be in range of [" + str(-n) + ", " + str(n)
                             + "], but got " + str(start) + ")")
        if start < 0:
            start += n
        if start + length > n:
            raise RuntimeError("start (" + str(start) + ") + length (" + str(length) + ") exceeds dimension size ("
                               + str(n) + ").")
        return _C.slice(self, dim, start, start + length, 1)

    def masked_fill(self, mask, value):
        return masked_fill(self, mask, value)

    def masked_fill_(self, mask, value):
        return _C.assign(self, masked_fill(self, mask, value))

    def masked_select(self, mask):
        return self[mask.expand_as(self) if mask.shape != self.shape else mask]

    def index_select(self, dim, index):
        return index_select(self, dim, index)

    def gather(self, dim, index, sparse_grad=False):
        return gather(self, dim, index, sparse_grad=sparse_grad)

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

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return full(size, fill_value, dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)

    def new_tensor(self, data, dtype=None, device=None):
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device)

    def element_size(self):
        if self.dtype == float32 or self.dtype == int32:
            return 4
        if self.dtype == bfloat16 or self.dtype == float16:
            return 2
        if self.dtype == int64 or self.dtype == float64:
            return 8
        return 1

    def nelement(self):
        return self.numel()

    def storage_offset(self):
        return _C.storage_offset(self)

    def data_ptr(self):
        # An address in a virtual space: equal for windows that start at the
        # same element of one storage, apart by the bytes between them.
        return _C.data_ptr(self)

    def is_floating_point(self):
        return self.dtype == float32 or self.dtype == bfloat16 or self.dtype == float64 or self.dtype == float16

    def nonzero(self, as_tuple=False):
        return nonzero(self, as_tuple=as_tuple)

    # Autograd.
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        if inputs is not None:
            raise NotImplementedError("backward(inputs=...) is not supported yet")
        if create_graph:
            raise NotImplementedError("backward(create_graph=True) is not supported")
        while _backward_pre_callbacks:
            _backward_pre_callbacks.pop(0)()
        _C.backward(self, gradient, _py_bool(retain_graph))
        # What must run once the gradients are in (autograd's queued
        # callbacks): DistributedDataParallel's bucket all-reduces.
        while _backward_callbacks:
            _backward_callbacks.pop(0)()

    def requires_grad_(self, requires_grad=True):
        if requires_grad and not self.is_floating_point():
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
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

    def div_(self, other, rounding_mode=None):
        return _C.assign(self, self.div(other, rounding_mode=rounding_mode))

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

    def copy_(self, src, non_blocking=False):
        return _C.write(self, src)

    def uniform_(self, *args, generator=None, **kwargs):
        # PyTorch's parameters are `from` and `to`, which a Python `def`
        # cannot name: they are taken by hand, as its C++ binding does.
        bounds = [0.0, 1.0]
        for i, value in enumerate(args):
            if i > 1:
                raise TypeError("uniform_() takes from 0 to 2 positional arguments but "
                                + str(_py_len(args)) + " were given")
            bounds[i] = value
        for key, value in kwargs.items():
            if key == "from":
                bounds[0] = value
            elif key == "to":
                bounds[1] = value
            else:
                raise TypeError("uniform_() got an unexpected keyword argument '" + key + "'")
        _no_generator(generator, "uniform_")
        return _C.fill_random(self, False, bounds[0], bounds[1])

    def normal_(self, mean=0.0, std=1.0, generator=None):
        _no_generator(generator, "normal_")
        return _C.fill_random(self, True, mean, std)

    def exponential_(self, lambd=1.0, *, generator=None):
        # ATen's CPU kernel: one double uniform draw per element, in order
        # (53 random bits, as torch.rand draws float64), turned into
        # -1/lambd * log1p(-u) and cast to the tensor's dtype.
        if not self.is_floating_point():
            raise RuntimeError('"exponential_cpu" not implemented for \'' + _scalar_type_name(self.dtype) + "'")
        if not lambd > 0.0:
            raise RuntimeError("exponential_ expects lambda > 0.0, but found lambda=" + str(lambd))
        with _drawing_from(generator):
            u = rand(self.shape, dtype=float64)
        with no_grad():
            self.copy_((log1p(-u) * (-1.0 / lambd)).to(self.dtype))
        return self

    def bernoulli_(self, p=0.5, *, generator=None):
        # ATen's CPU kernel, element by element in order: a uniform draw u
        # and u < p. A float p draws doubles (53 random bits, as torch.rand
        # draws float64); a tensor of probabilities draws in its own
        # precision (float32: 24 bits, as torch.rand draws float32).
        if _py_isinstance(p, Tensor):
            with _drawing_from(generator):
                u = rand(self.shape, dtype=float64 if p.dtype == float64 else float32)
            keep = u < p.to("cpu")
        else:
            if not 0.0 <= p <= 1.0:
                raise RuntimeError("bernoulli_ expects p to be in [0, 1], but got p=" + str(p))
            with _drawing_from(generator):
                u = rand(self.shape, dtype=float64)
            keep = u < p
        with no_grad():
            self.copy_(keep.to(self.dtype))
        return self

    def bernoulli(self, p=None, *, generator=None):
        return bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return multinomial(self, num_samples, replacement, generator=generator)

    def random_(self, *bounds, generator=None):
        # random_(), random_(to) or random_(from, to), as ATen draws them.
        if _py_len(bounds) == 0:
            low, high = 0, None
        elif _py_len(bounds) == 1:
            low, high = 0, bounds[0]
        else:
            low, high = bounds[0], bounds[1]
        with _drawing_from(generator):
            values = _C.random_ints(self.numel(), low, high, self.dtype)
        with no_grad():
            self.copy_(tensor(values, dtype=self.dtype, device=self.device).reshape(self.shape))
        return self

    def lerp_(self, end, weight):
        return _C.assign(self, lerp(self, end, weight))

    def lerp(self, end, weight):
        return lerp(self, end, weight)

    def addcmul_(self, tensor1, tensor2, value=1):
        return _C.assign(self, addcmul(self, tensor1, tensor2, value=value))

    def addcdiv_(self, tensor1, tensor2, value=1):
        return _C.assign(self, addcdiv(self, tensor1, tensor2, value=value))

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]


class _GradFnNode:
    # What `Tensor.grad_fn` gives: an object whose class is named as PyTorch
    # names the node that made the tensor.
    def name(self):
        return type(self).__name__

    def __repr__(self):
        return "<" + type(self).__name__ + " object at " + hex(id(self)) + ">"


_grad_fn_classes = {}


def _grad_fn_object(name):
    cls = _grad_fn_classes.get(name)
    if cls is None:
        cls = type(name, (_GradFnNode,), {})
        _grad_fn_classes[name] = cls
    return cls()


Tensor._grad_fn_object = _grad_fn_object


# Creation.
