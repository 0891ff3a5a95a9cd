# Elementwise maths composed from the runtime's primitives: the rounding family,
# fmod, inverse trigonometric and hyperbolic functions, logs and exponentials in
# other bases, logaddexp, NaN handling, logical and bitwise operations, isclose,
# iinfo/finfo, and the in-place `_` variants. Part of the `torch` module's body
# (see __init__.py; one namespace).
#
# The compositions are accurate to float32 rounding for the arguments programs
# use (asin and acos through the atan primitive, erfinv by Giles' single
# precision approximation); they are not correctly rounded. tan and atan are
# runtime primitives.

_PI = 3.141592653589793
_LN2 = 0.6931471805599453
_LN10 = 2.302585092994046


def _as_tensor_like(value, like):
    if _py_isinstance(value, Tensor):
        return value
    return tensor(value, device=like.device)


def sgn(input):
    return sign(input)


def trunc(input):
    if not input.is_floating_point():
        return input.clone()
    return _named(where(input < 0, input.ceil(), input.floor()), "TruncBackward0")


fix = _alias(trunc, "fix")


def frac(input):
    return input - trunc(input)


def fmod(input, other):
    # The remainder with the sign of the dividend (C's fmod).
    if input.is_floating_point() or (_py_isinstance(other, Tensor) and other.is_floating_point()) \
            or _py_isinstance(other, _py_float):
        out = input - trunc(input / other) * other
        # A zero result keeps the dividend's sign, as C's fmod does.
        return _named(where(out == 0, input * 0, out), "FmodBackward0")
    return input - input.div(other, rounding_mode="trunc") * other


def hypot(input, other):
    return (input * input + other * other).sqrt()


def atan(input):
    return _C.unary("atan", input)


def atan2(input, other):
    y, x = input, other
    base = atan(y / x)
    half = where(y > 0, _PI / 2, where(y < 0, -_PI / 2, 0.0))
    return _named(where(x > 0, base, where(x < 0, base + where(y >= 0, _PI, -_PI), half)), "Atan2Backward0")


arctan = _alias(atan, "arctan")
arctan2 = _alias(atan2, "arctan2")


def asin(input):
    return atan(input / (1 - input * input).sqrt())


def acos(input):
    return _PI / 2 - asin(input)


def tan(input):
    return _C.unary("tan", input)


def sinh(input):
    return (input.exp() - (-input).exp()) / 2


def cosh(input):
    return (input.exp() + (-input).exp()) / 2


def asinh(input):
    a = input.abs()
    return sign(input) * (a + (a * a + 1).sqrt()).log()


def acosh(input):
    return (input + (input * input - 1).sqrt()).log()


def atanh(input):
    return ((1 + input) / (1 - input)).log() / 2


arcsin = _alias(asin, "arcsin")
arccos = _alias(acos, "arccos")
arcsinh = _alias(asinh, "arcsinh")
arccosh = _alias(acosh, "arccosh")
arctanh = _alias(atanh, "arctanh")


def exp2(input):
    return (input * _LN2).exp()


def expm1(input):
    return _named(input.exp() - 1, "Expm1Backward0")


def log1p(input):
    return _named((1 + input).log(), "Log1PBackward0")


def log2(input):
    return input.log() / _LN2


def log10(input):
    return input.log() / _LN10


def erfc(input):
    return 1 - erf(input)


def erfinv(input):
    x = input if input.is_floating_point() else input.float()
    w = -((1 - x) * (1 + x)).log()
    a = w - 2.5
    p = 2.81022636e-08
    for c in [3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941]:
        p = c + p * a
    b = w.sqrt() - 3
    q = -0.000200214257
    for c in [0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
              0.00943887047, 1.00167406, 2.83297682]:
        q = c + q * b
    return where(w < 5, p, q) * x


def reciprocal(input):
    return input.reciprocal()


def logaddexp(input, other):
    m = maximum(input, other)
    m = where(m.abs() == _py_float("inf"), zeros((), dtype=m.dtype, device=m.device), m)
    return m + ((input - m).exp() + (other - m).exp()).log()


def logaddexp2(input, other):
    return logaddexp(input * _LN2, other * _LN2) / _LN2


def xlogy(input, other):
    x = _as_tensor_like(input, other) if not _py_isinstance(input, Tensor) else input
    return where(x == 0, 0.0, x * other.log() if _py_isinstance(other, Tensor) else x * _py_float(other))


def logit(input, eps=None):
    x = input if eps is None else input.clamp(eps, 1 - eps)
    return (x / (1 - x)).log()


def copysign(input, other):
    other = _as_tensor_like(other, input)
    out = input.abs() * where(signbit(other), -1.0, 1.0)
    return out if out.is_floating_point() else out.float()


def signbit(input):
    if not input.is_floating_point():
        return input < 0
    # -0.0 has its sign bit set: 1 / -0.0 is -inf.
    return (input < 0) | ((input == 0) & (1 / input < 0))


def float_power(input, exponent):
    base = input.double() if _py_isinstance(input, Tensor) else tensor(input, dtype=float64)
    if _py_isinstance(exponent, Tensor):
        exponent = exponent.double()
    return base.pow(exponent)


def true_divide(input, other):
    return div(input, other)


def isposinf(input):
    return input == _py_float("inf")


def isneginf(input):
    return input == _py_float("-inf")


def isreal(input):
    return ones_like(input, dtype=bool)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    if not input.is_floating_point():
        return input.clone()
    info = finfo(input.dtype)
    out = where(input != input, 0.0 if nan is None else nan, input)
    out = where(out == _py_float("inf"), info.max if posinf is None else posinf, out)
    return where(out == _py_float("-inf"), info.min if neginf is None else neginf, out)


def nansum(input, dim=None, keepdim=False, dtype=None):
    return where(input != input, 0.0, input).sum(dim, keepdim, dtype=dtype)


def nanmean(input, dim=None, keepdim=False, dtype=None):
    kept = (input == input)
    return nansum(input, dim, keepdim, dtype) / kept.sum(dim, keepdim)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    other = _as_tensor_like(other, input)
    close = (input - other).abs() <= atol + rtol * other.abs()
    close = close | (input == other)
    if equal_nan:
        close = close | ((input != input) & (other != other))
    return close


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _py_bool(isclose(input, other, rtol, atol, equal_nan).all().item())


def count_nonzero(input, dim=None):
    return (input != 0).sum(dim)


# Logical and bitwise operations.

def logical_and(input, other):
    return input.bool() & _as_tensor_like(other, input).bool()


def logical_or(input, other):
    return input.bool() | _as_tensor_like(other, input).bool()


def logical_xor(input, other):
    return input.bool() != _as_tensor_like(other, input).bool()


def _bitwise_check(name, *operands):
    for x in operands:
        if _py_isinstance(x, Tensor) and x.is_floating_point():
            raise RuntimeError('"' + name + '_cpu" not implemented for \'' + _scalar_type_name(x.dtype) + "'")
        if _py_isinstance(x, _py_float):
            raise TypeError("unsupported operand type(s) for bitwise operation: 'float'")


def _scalar_type_name(dtype):
    for d, name in [(float32, "Float"), (float64, "Double"), (bfloat16, "BFloat16"), (float16, "Half"),
                    (uint8, "Byte"), (int32, "Int"), (int64, "Long"), (bool, "Bool")]:
        if d == dtype:
            return name


def _bitwise(name, input, other, combine):
    _bitwise_check(name, input, other)
    a = input if _py_isinstance(input, Tensor) else tensor(input, device=other.device)
    b = other if _py_isinstance(other, Tensor) else tensor(other, device=a.device)
    if a.dtype == bool and b.dtype == bool:
        return combine(a.long(), b.long()) != 0
    if _py_isinstance(input, Tensor) and _py_isinstance(other, Tensor) and input.dim() and other.dim():
        dtype = (a + b).dtype
    else:
        dtype = a.dtype if _py_isinstance(input, Tensor) and (input.dim() or not _py_isinstance(other, Tensor)) \
            else b.dtype
    if dtype == bool:
        dtype = int64
    # Two's complement bit by bit: bits 0 to 62 by floor division (exact for
    # negative numbers too), bit 63 is the sign.
    x, y = a.long(), b.long()
    powers = 2 ** arange(63, device=x.device)
    bx = (x.unsqueeze(-1) // powers) % 2
    by = (y.unsqueeze(-1) // powers) % 2
    low = (combine(bx, by) * powers).sum(-1)
    sign_bit = combine((x < 0).long(), (y < 0).long()) != 0
    out = low + where(sign_bit, -2 ** 62 * 2, 0)
    return out.to(dtype)


def bitwise_and(input, other):
    return _bitwise("bitwise_and", input, other, lambda p, q: p * q)


def bitwise_or(input, other):
    return _bitwise("bitwise_or", input, other, lambda p, q: p + q - p * q)


def bitwise_xor(input, other):
    return _bitwise("bitwise_xor", input, other, lambda p, q: (p + q) % 2)


def bitwise_not(input):
    _bitwise_check("bitwise_not", input)
    if input.dtype == bool:
        return logical_not(input)
    return -input - 1


def bitwise_left_shift(input, other):
    _bitwise_check("lshift", input, other)
    if not _py_isinstance(input, Tensor):
        input = tensor(input, device=other.device)
    return (input * 2 ** _as_tensor_like(other, input)).to(input.dtype)


def bitwise_right_shift(input, other):
    _bitwise_check("rshift", input, other)
    if not _py_isinstance(input, Tensor):
        input = tensor(input, device=other.device)
    return (input // 2 ** _as_tensor_like(other, input)).to(input.dtype)


# Type limits.

class iinfo:
    def __init__(self, type):
        if type == uint8:
            self.bits, self.min, self.max = 8, 0, 255
        elif type == int32:
            self.bits, self.min, self.max = 32, -2 ** 31, 2 ** 31 - 1
        elif type == int64:
            # -2 ** 63 is computed as -(2 ** 63), which does not fit in 64 bits.
            self.bits, self.min, self.max = 64, -2 ** 62 * 2, 2 ** 62 - 1 + 2 ** 62
        elif type == bool:
            self.bits, self.min, self.max = 8, 0, 1
        else:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle '"
                            + str(type).replace("torch.", "") + "'")
        self.dtype = str(type).replace("torch.", "")

    def __repr__(self):
        return "iinfo(min=" + str(self.min) + ", max=" + str(self.max) + ", dtype=" + self.dtype + ")"


class finfo:
    def __init__(self, type=None):
        if type is None:
            type = float32
        if type == float32:
            self.bits, self.eps, self.max, self.tiny = 32, 1.1920928955078125e-07, 3.4028234663852886e+38, \
                1.1754943508222875e-38
            self.resolution = 1e-06
        elif type == float64:
            self.bits, self.eps, self.max, self.tiny = 64, 2.220446049250313e-16, 1.7976931348623157e+308, \
                2.2250738585072014e-308
            self.resolution = 1e-15
        elif type == bfloat16:
            self.bits, self.eps, self.max, self.tiny = 16, 0.0078125, 3.3895313892515355e+38, \
                1.1754943508222875e-38
            self.resolution = 0.01
        elif type == float16:
            self.bits, self.eps, self.max, self.tiny = 16, 0.0009765625, 65504.0, 6.103515625e-05
            self.resolution = 0.001
        else:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle '"
                            + str(type).replace("torch.", "") + "'")
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = str(type).replace("torch.", "")

    def __repr__(self):
        return ("finfo(resolution=" + str(self.resolution) + ", min=" + _e(self.min) + ", max=" + _e(self.max)
                + ", eps=" + _e(self.eps) + ", smallest_normal=" + _e(self.tiny) + ", tiny=" + _e(self.tiny)
                + ", dtype=" + self.dtype + ")")


def _e(x):
    # numpy's short repr of a float limit: 3.40282e+38.
    s = "{:.6g}".format(x)
    return s


# In-place variants: the result computed out of place, then written back.

def _inplace(name):
    def method(self, *args, **kwargs):
        return _C.assign(self, getattr(self, name)(*args, **kwargs))
    return method


for _name in ["sgn", "trunc", "fix", "frac", "fmod", "remainder", "hypot", "atan", "atan2", "asin", "acos",
              "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "exp2", "expm1", "log1p", "log2", "log10",
              "erfc", "erfinv", "log", "floor", "ceil", "round", "sign", "sigmoid", "tanh", "sin", "cos",
              "square", "reciprocal", "rsqrt", "logaddexp", "clamp_min", "clamp_max", "floor_divide",
              "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or",
              "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift", "nan_to_num",
              "copysign", "xlogy", "erf", "triu", "tril", "cumsum", "masked_scatter", "true_divide"]:
    setattr(Tensor, _name + "_", _inplace(_name))


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    return method


for _name, _fn in [("sgn", sgn), ("trunc", trunc), ("fix", fix), ("frac", frac), ("fmod", fmod),
                   ("hypot", hypot), ("atan", atan), ("atan2", atan2), ("arctan", atan), ("arctan2", atan2),
                   ("asin", asin), ("acos", acos), ("arcsin", asin), ("arccos", acos), ("tan", tan),
                   ("sinh", sinh), ("cosh", cosh), ("asinh", asinh), ("acosh", acosh), ("atanh", atanh),
                   ("arcsinh", asinh), ("arccosh", acosh), ("arctanh", atanh), ("exp2", exp2), ("expm1", expm1),
                   ("log1p", log1p), ("log2", log2), ("log10", log10), ("erfc", erfc), ("erfinv", erfinv),
                   ("logaddexp", logaddexp), ("logaddexp2", logaddexp2), ("xlogy", xlogy), ("logit", logit),
                   ("copysign", copysign), ("signbit", signbit), ("float_power", float_power),
                   ("true_divide", true_divide), ("isposinf", isposinf), ("isneginf", isneginf),
                   ("isreal", isreal), ("nan_to_num", nan_to_num), ("nansum", nansum), ("nanmean", nanmean),
                   ("isclose", isclose), ("allclose", allclose), ("count_nonzero", count_nonzero),
                   ("logical_xor", logical_xor), ("bitwise_and", bitwise_and), ("bitwise_or", bitwise_or),
                   ("bitwise_xor", bitwise_xor), ("bitwise_not", bitwise_not),
                   ("bitwise_left_shift", bitwise_left_shift), ("bitwise_right_shift", bitwise_right_shift),
                   ("isnan", isnan), ("isinf", isinf), ("isfinite", isfinite), ("equal", equal)]:
    setattr(Tensor, _name, _method(_fn))
