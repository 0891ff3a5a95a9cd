# The forms PyTorch has of ops that exist here in another form (the inventory
# test, crates/tpu-torch/tests/inventory.rs, asks for every form of a supported
# op: `torch.f`, `torch.f_`, `Tensor.f`, `Tensor.f_`), with PyTorch's
# parameters. Part of the `torch` module's body, run last in the same namespace
# so that each form can call the one it mirrors. In-place forms compute out of
# place and write into the storage, as every in-place update here does.

# The function forms PyTorch has of Tensor methods (the inventory test asks
# for every form of a supported op), in-place ones included.


def abs_(input):
    return input.abs_()


def ceil_(input):
    return input.ceil_()


def cos_(input):
    return input.cos_()


def erf_(input):
    return input.erf_()


def exp_(input):
    return input.exp_()


def floor_(input):
    return input.floor_()


def log_(input):
    return input.log_()


def neg_(input):
    return input.neg_()


def reciprocal_(input):
    return input.reciprocal_()


def relu_(input):
    return input.relu_()


def rsqrt_(input):
    return input.rsqrt_()


def sigmoid_(input):
    return input.sigmoid_()


def sin_(input):
    return input.sin_()


def sqrt_(input):
    return input.sqrt_()


def square_(input):
    return input.square_()


def tanh_(input):
    return input.tanh_()


def zero_(input):
    return input.zero_()


def detach_(input):
    return input.detach_()


def round_(input, decimals=0):
    return input.round_(decimals=decimals)


def clamp_(input, min=None, max=None):
    return input.clamp_(min, max)


def clip_(input, min=None, max=None):
    return input.clamp_(min, max)


def fill_(input, value):
    return input.fill_(value)


def fill(input, value):
    return full_like(input, value)


def detach(input):
    return input.detach()


def addcmul(input, tensor1, tensor2, value=1):
    out = input + value * tensor1 * tensor2 if value != 1 else input + tensor1 * tensor2
    return _named(out, "AddcmulBackward0")


def addcdiv(input, tensor1, tensor2, value=1):
    out = input + value * (tensor1 / tensor2) if value != 1 else input + tensor1 / tensor2
    return _named(out, "AddcdivBackward0")


def broadcast_to(input, size):
    return input.broadcast_to(size)


def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    # ATen's normal: draw standard normals in the output's shape, then scale
    # and shift (a scalar mean and std with a size fill the tensor directly).
    _no_generator(generator, "normal")
    if size is not None:
        out = empty(size, dtype=dtype, device=device).normal_(mean, std)
        return out.requires_grad_(requires_grad) if requires_grad else out
    if _py_isinstance(mean, Tensor):
        shape = mean.shape if not _py_isinstance(std, Tensor) else (mean + std).shape
        like = mean
    else:
        shape = std.shape
        like = std
    out = empty(shape, dtype=like.dtype, device=like.device).normal_(0.0, 1.0)
    return out * std + mean


def acos_(input):
    return input.acos_()


def acosh_(input):
    return input.acosh_()


def arccos_(input):
    return input.arccos_()


def arccosh_(input):
    return input.arccosh_()


def arcsin_(input):
    return input.arcsin_()


def arcsinh_(input):
    return input.arcsinh_()


def arctan_(input):
    return input.arctan_()


def arctanh_(input):
    return input.arctanh_()


def asin_(input):
    return input.asin_()


def asinh_(input):
    return input.asinh_()


def atan_(input):
    return input.atan_()


def atanh_(input):
    return input.atanh_()


def cosh_(input):
    return input.cosh_()


def erfc_(input):
    return input.erfc_()


def exp2_(input):
    return input.exp2_()


def expm1_(input):
    return input.expm1_()


def fix_(input):
    return input.fix_()


def frac_(input):
    return input.frac_()


def log10_(input):
    return input.log10_()


def log1p_(input):
    return input.log1p_()


def log2_(input):
    return input.log2_()


def sinh_(input):
    return input.sinh_()


def tan_(input):
    return input.tan_()


def trunc_(input):
    return input.trunc_()


def clamp_max_(input, max):
    return input.clamp_max_(max)


def clamp_min_(input, min):
    return input.clamp_min_(min)


def addmv_(input, mat, vec, *, beta=1, alpha=1):
    return _C.assign(input, addmv(input, mat, vec, beta=beta, alpha=alpha))


def logit_(input, eps=None):
    return input.logit_(eps)


def nan_to_num_(input, nan=None, posinf=None, neginf=None):
    return _C.assign(input, nan_to_num(input, nan, posinf, neginf))


def xlogy_(input, other):
    return input.xlogy_(other)


def masked_scatter(input, mask, source):
    return input.masked_scatter(mask, source)


class _TensorForms:
    # Tensor methods, defined in a class body so that they are methods (their
    # names would otherwise shadow the torch functions of the same name), then
    # set on Tensor below.

    def ceil_(self):
        return _C.assign(self, self.ceil())

    def cos_(self):
        return _C.assign(self, self.cos())

    def erf_(self):
        return _C.assign(self, self.erf())

    def floor_(self):
        return _C.assign(self, self.floor())

    def log_(self):
        return _C.assign(self, self.log())

    def reciprocal_(self):
        return _C.assign(self, self.reciprocal())

    def rsqrt_(self):
        return _C.assign(self, self.rsqrt())

    def sigmoid_(self):
        return _C.assign(self, self.sigmoid())

    def sign_(self):
        return _C.assign(self, self.sign())

    def sin_(self):
        return _C.assign(self, self.sin())

    def square_(self):
        return _C.assign(self, self.square())

    def tanh_(self):
        return _C.assign(self, self.tanh())

    def round_(self, decimals=0):
        return _C.assign(self, self.round(decimals=decimals))

    def eq_(self, other):
        return _C.assign(self, self.eq(other))

    def ne_(self, other):
        return _C.assign(self, self.ne(other))

    def ge_(self, other):
        return _C.assign(self, self.ge(other))

    def gt_(self, other):
        return _C.assign(self, self.gt(other))

    def le_(self, other):
        return _C.assign(self, self.le(other))

    def lt_(self, other):
        return _C.assign(self, self.lt(other))

    def remainder_(self, other):
        return _C.assign(self, self.remainder(other))

    def floor_divide_(self, other):
        return _C.assign(self, self.floor_divide(other))

    def logical_and_(self, other):
        return _C.assign(self, self.logical_and(other))

    def logical_or_(self, other):
        return _C.assign(self, self.logical_or(other))

    def logical_not_(self):
        return _C.assign(self, self.logical_not())

    def cumsum_(self, dim, dtype=None):
        return _C.assign(self, self.cumsum(dim, dtype=dtype))

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def tril_(self, diagonal=0):
        return _C.assign(self, self.tril(diagonal))

    def triu_(self, diagonal=0):
        return _C.assign(self, self.triu(diagonal))

    def _reshape_in_place(self, view, function):
        # A view op in place changes this tensor's shape, not its values: it
        # takes the view's layout, which the history of a tensor that
        # requires grad could not follow.
        if self.requires_grad:
            raise NotImplementedError(function + "() on a tensor that requires grad is not supported yet")
        self.data = view
        return self

    def squeeze_(self, dim=None):
        return self._reshape_in_place(self.squeeze(dim), "squeeze_")

    def unsqueeze_(self, dim):
        return self._reshape_in_place(self.unsqueeze(dim), "unsqueeze_")

    def t_(self):
        return self._reshape_in_place(self.t(), "t_")

    def transpose_(self, dim0, dim1):
        return self._reshape_in_place(self.transpose(dim0, dim1), "transpose_")

    def addcmul(self, tensor1, tensor2, value=1):
        return addcmul(self, tensor1, tensor2, value=value)

    def addcdiv(self, tensor1, tensor2, value=1):
        return addcdiv(self, tensor1, tensor2, value=value)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return allclose(self, other, rtol, atol, equal_nan)

    def equal(self, other):
        return equal(self, other)

    def dot(self, tensor):
        return dot(self, tensor)

    def outer(self, vec2):
        return outer(self, vec2)

    def isnan(self):
        return isnan(self)

    def isinf(self):
        return isinf(self)

    def isfinite(self):
        return isfinite(self)

    def swapaxes_(self, axis0, axis1):
        return self._reshape_in_place(self.swapaxes(axis0, axis1), "swapaxes_")

    def swapdims_(self, dim0, dim1):
        return self._reshape_in_place(self.swapaxes(dim0, dim1), "swapdims_")

    def diagflat(self, offset=0):
        return diagflat(self, offset)

    def dist(self, other, p=2):
        return dist(self, other, p)

    def masked_scatter(self, mask, source):
        return self.clone().masked_scatter_(mask, source)

    def float_power_(self, exponent):
        return _C.assign(self, float_power(self, exponent))

    def logit_(self, eps=None):
        return _C.assign(self, logit(self, eps))

    def arccos_(self):
        return _C.assign(self, self.arccos())

    def arccosh_(self):
        return _C.assign(self, self.arccosh())

    def arcsin_(self):
        return _C.assign(self, self.arcsin())

    def arcsinh_(self):
        return _C.assign(self, self.arcsinh())

    def arctan_(self):
        return _C.assign(self, self.arctan())

    def arctanh_(self):
        return _C.assign(self, self.arctanh())

    def arctan2_(self, other):
        return _C.assign(self, self.arctan2(other))


for _name in ["_reshape_in_place", "ceil_", "cos_", "erf_", "floor_", "log_", "reciprocal_", "rsqrt_", "sigmoid_", "sign_", "sin_", "square_", "tanh_", "round_", "eq_", "ne_", "ge_", "gt_", "le_", "lt_", "remainder_", "floor_divide_", "logical_and_", "logical_or_", "logical_not_", "cumsum_", "clip_", "tril_", "triu_", "squeeze_", "unsqueeze_", "t_", "transpose_", "addcmul", "addcdiv", "allclose", "equal", "dot", "outer", "isnan", "isinf", "isfinite", "swapaxes_", "swapdims_", "diagflat", "dist", "masked_scatter", "float_power_", "logit_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "arctan2_"]:
    setattr(Tensor, _name, getattr(_TensorForms, _name))
