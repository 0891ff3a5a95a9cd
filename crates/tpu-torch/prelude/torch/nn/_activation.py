# torch.nn's further activations, paddings, rearrangements, normalisations,
# distances and resampling (part of the torch.nn module, run after _rnn.py
# in its namespace): each keeps its options, calls its functional form and
# prints PyTorch's repr.


class _Inplace(Module):
    # An activation whose only option is `inplace`, shown when set.
    _f = None
    _show_inplace = True

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return getattr(F, self._f)(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace and self._show_inplace else ""


class SELU(_Inplace):
    _f = "selu"


class Mish(_Inplace):
    _f = "mish"


class Hardsigmoid(_Inplace):
    _f = "hardsigmoid"
    _show_inplace = False


class Hardswish(_Inplace):
    _f = "hardswish"
    _show_inplace = False


class _Plain(Module):
    # An activation without options.
    def forward(self, input):
        return getattr(F, self._f)(input)


class Softsign(_Plain):
    _f = "softsign"


class Tanhshrink(_Plain):
    _f = "tanhshrink"


class LogSigmoid(_Plain):
    _f = "logsigmoid"


class CELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return "alpha=" + str(self.alpha) + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return "beta=" + str(self.beta) + ", threshold=" + str(self.threshold)


class Softshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Softshrink):
    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return ("threshold=" + str(self.threshold) + ", value=" + str(self.value)
                + (", inplace=True" if self.inplace else ""))


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(torch.full((num_parameters,), init, dtype=dtype, device=device))

    def reset_parameters(self):
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return "num_parameters=" + str(self.num_parameters)


class RReLU(Module):
    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return "lower=" + str(self.lower) + ", upper=" + str(self.upper) + (", inplace=True" if self.inplace else "")


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return "dim=" + str(self.dim)


class Softmin(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim)

    def extra_repr(self):
        return "dim=" + str(self.dim)


class Softmax2d(Module):
    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError("Softmax2d: expected input to be 3D or 4D, got " + str(input.dim()) + "D instead")
        return F.softmax(input, -3)


class AlphaDropout(Dropout):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(Dropout):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class Dropout3d(Dropout):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class _Rearrange(Module):
    # PixelShuffle, PixelUnshuffle, ChannelShuffle: one integer option.
    def __init__(self, factor):
        super().__init__()
        setattr(self, self._option, factor)

    def forward(self, input):
        return getattr(F, self._f)(input, getattr(self, self._option))

    def extra_repr(self):
        return self._option + "=" + str(getattr(self, self._option))


class PixelShuffle(_Rearrange):
    _f, _option = "pixel_shuffle", "upscale_factor"


class PixelUnshuffle(_Rearrange):
    _f, _option = "pixel_unshuffle", "downscale_factor"


class ChannelShuffle(_Rearrange):
    _f, _option = "channel_shuffle", "groups"


class _Pad(Module):
    # The padding modules: `padding` as an int (every side) or a tuple of
    # 2 * dims sizes, last dimension first.
    _dims = 1
    _mode = "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        self.padding = (padding,) * (2 * self._dims) if isinstance(padding, int) else tuple(padding)
        self.value = value

    def forward(self, input):
        if self._mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return str(self.padding)


class _ConstantPad(_Pad):
    def __init__(self, padding, value):
        super().__init__(padding, value)

    def extra_repr(self):
        return "padding=" + str(self.padding) + ", value=" + str(self.value)


class _ZeroPad(_Pad):
    def __init__(self, padding):
        super().__init__(padding, 0.0)


ConstantPad1d = type("ConstantPad1d", (_ConstantPad,), {"_dims": 1})
ConstantPad2d = type("ConstantPad2d", (_ConstantPad,), {"_dims": 2})
ConstantPad3d = type("ConstantPad3d", (_ConstantPad,), {"_dims": 3})
ZeroPad1d = type("ZeroPad1d", (_ZeroPad,), {"_dims": 1})
ZeroPad2d = type("ZeroPad2d", (_ZeroPad,), {"_dims": 2})
ZeroPad3d = type("ZeroPad3d", (_ZeroPad,), {"_dims": 3})
for _mode, _prefix in (("reflect", "Reflection"), ("replicate", "Replication"), ("circular", "Circular")):
    for _dims in (1, 2, 3):
        _name = _prefix + "Pad" + str(_dims) + "d"
        globals()[_name] = type(_name, (_ZeroPad,), {"_dims": _dims, "_mode": _mode})
for _name in ("ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
              "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
              "ReplicationPad3d", "CircularPad1d", "CircularPad2d", "CircularPad3d"):
    globals()[_name].__module__ = "torch.nn.modules.padding"
    globals()[_name].__qualname__ = _name


class _InstanceNorm(Module):
    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False,
                 device=None, dtype=None):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(torch.ones(num_features, dtype=dtype, device=device))
            self.bias = Parameter(torch.zeros(num_features, dtype=dtype, device=device))
        else:
            self.weight = None
            self.bias = None
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, dtype=dtype, device=device))
            self.register_buffer("running_var", torch.ones(num_features, dtype=dtype, device=device))
            self.register_buffer("num_batches_tracked", torch.tensor(0, device=device))
        else:
            self.running_mean = None
            self.running_var = None

    def forward(self, input):
        if input.dim() == self._dims + 1:
            return self.forward(input.unsqueeze(0)).squeeze(0)
        if input.dim() != self._dims + 2:
            raise ValueError("expected " + str(self._dims + 1) + "D or " + str(self._dims + 2) + "D input (got "
                             + str(input.dim()) + "D input)")
        return F.instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                               self.training or not self.track_running_stats, self.momentum, self.eps)

    def extra_repr(self):
        return (str(self.num_features) + ", eps=" + str(self.eps) + ", momentum=" + str(self.momentum)
                + ", affine=" + str(self.affine) + ", bias=" + str(self.affine) + ", track_running_stats="
                + str(self.track_running_stats))


class InstanceNorm1d(_InstanceNorm):
    _dims = 1


class InstanceNorm2d(_InstanceNorm):
    _dims = 2


class InstanceNorm3d(_InstanceNorm):
    _dims = 3


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.ones(self.normalized_shape, dtype=dtype, device=device))
        else:
            self.weight = None

    def reset_parameters(self):
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return (str(self.normalized_shape) + ", eps=" + str(self.eps) + ", elementwise_affine="
                + str(self.elementwise_affine))


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return (str(self.size) + ", alpha=" + str(self.alpha) + ", beta=" + str(self.beta) + ", k="
                + str(self.k))


class CosineSimilarity(Module):
    def __init__(self, dim=1, eps=1e-08):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    def __init__(self, p=2.0, eps=1e-06, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class Bilinear(Module):
    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty(out_features, in1_features, in2_features, dtype=dtype, device=device))
        self.bias = Parameter(torch.empty(out_features, dtype=dtype, device=device)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return ("in1_features=" + str(self.in1_features) + ", in2_features=" + str(self.in2_features)
                + ", out_features=" + str(self.out_features) + ", bias=" + str(self.bias is not None))


class LazyLinear(Linear):
    # Linear whose in_features is the last dimension of its first input; its
    # weight is drawn then, as PyTorch's is.
    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = Parameter(torch.empty(0, dtype=dtype, device=device))
        self.bias = Parameter(torch.empty(0, dtype=dtype, device=device)) if bias else None

    def forward(self, input):
        if self.in_features == 0:
            self.in_features = input.shape[-1]
            with torch.no_grad():
                self.weight = Parameter(torch.empty(self.out_features, self.in_features, dtype=self.weight.dtype,
                                                    device=self.weight.device))
                if self.bias is not None:
                    self.bias = Parameter(torch.empty(self.out_features, dtype=self.bias.dtype,
                                                      device=self.bias.device))
                self.reset_parameters()
            self.__class__ = Linear
        return F.linear(input, self.weight, self.bias)


class EmbeddingBag(Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None,
                 device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None and padding_idx < 0:
            padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(torch.empty(num_embeddings, embedding_dim, dtype=dtype, device=device))
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    def extra_repr(self):
        out = str(self.num_embeddings) + ", " + str(self.embedding_dim)
        if self.max_norm is not None:
            out += ", max_norm=" + str(self.max_norm)
        if self.norm_type != 2:
            out += ", norm_type=" + str(self.norm_type)
        if self.scale_grad_by_freq:
            out += ", scale_grad_by_freq=True"
        out += ", mode=" + repr(self.mode)
        if self.padding_idx is not None:
            out += ", padding_idx=" + str(self.padding_idx)
        return out

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        bag = cls(embeddings.shape[0], embeddings.shape[1], max_norm, norm_type, scale_grad_by_freq, mode, sparse,
                  embeddings, include_last_offset, padding_idx)
        bag.weight.requires_grad = not freeze
        return bag


class Upsample(Module):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = float(scale_factor) if isinstance(scale_factor, (int, float)) else scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


class Fold(Module):
    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return ("output_size=" + str(self.output_size) + ", kernel_size=" + str(self.kernel_size)
                + ", dilation=" + str(self.dilation) + ", padding=" + str(self.padding) + ", stride="
                + str(self.stride))


class Unfold(Module):
    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return ("kernel_size=" + str(self.kernel_size) + ", dilation=" + str(self.dilation) + ", padding="
                + str(self.padding) + ", stride=" + str(self.stride))


class _LPPool(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return self._f(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return ("norm_type=" + str(self.norm_type) + ", kernel_size=" + str(self.kernel_size) + ", stride="
                + str(self.stride) + ", ceil_mode=" + str(self.ceil_mode))


class LPPool1d(_LPPool):
    _f = staticmethod(F.lp_pool1d)


class LPPool2d(_LPPool):
    _f = staticmethod(F.lp_pool2d)


class ParameterList(Module):
    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _key(self, idx):
        if idx < 0:
            idx += self._size
        if not 0 <= idx < self._size:
            raise IndexError("index " + str(idx) + " is out of range")
        return str(idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(self._size)[idx]])
        return getattr(self, self._key(idx))

    def __setitem__(self, idx, param):
        if isinstance(param, torch.Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, self._key(idx), param)

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(self._size))

    def __iadd__(self, parameters):
        for p in parameters:
            self.append(p)
        return self

    def append(self, value):
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values):
        self += values
        return self

    def extra_repr(self):
        lines = []
        for i in range(self._size):
            p = self[i]
            size = "x".join(str(d) for d in p.shape)
            device = " (" + str(p.device) + ")" if p.device.type == "tpu" else ""
            lines.append("  (" + str(i) + "): Parameter containing: [" + str(p.dtype) + " of size " + size + device
                         + "]")
        return "\n".join(lines)
