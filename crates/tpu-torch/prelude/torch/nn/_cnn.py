# torch.nn layers for convolutional networks (part of the torch.nn module, run
# after _layers.py in its namespace): convolutions, pooling, batch norm and
# channel dropout, with PyTorch's reprs, initialisation and buffers.


def _ntuple(value, n):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    return value * n if len(value) == 1 and n > 1 else value


class _ConvNd(Module):
    _dims = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self._dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got "
                             "padding_mode='" + str(padding_mode) + "'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.dilation = _ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError("Invalid padding string '" + padding + "', should be one of {'same', 'valid'}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = _ntuple(padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        self.transposed = self._transposed
        self.output_padding = (0,) * n
        # A transposed convolution's weight has the shape of the convolution
        # it is the gradient of.
        if self._transposed:
            channels = (in_channels, out_channels // groups)
        else:
            channels = (out_channels, in_channels // groups)
        self.weight = Parameter(torch.empty(channels + self.kernel_size, device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, device=device, dtype=dtype))
        else:
            self.bias = None
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _padding_pairs(self):
        # F.pad's order: the last dimension first.
        if isinstance(self.padding, str):
            pairs = []
            for i in range(self._dims - 1, -1, -1):
                total = self.dilation[i] * (self.kernel_size[i] - 1)
                pairs += [total // 2, total - total // 2] if self.padding == "same" else [0, 0]
            return pairs
        pairs = []
        for i in range(self._dims - 1, -1, -1):
            pairs += [self.padding[i], self.padding[i]]
        return pairs

    def _conv_forward(self, input, weight, bias):
        conv = F.conv1d if self._dims == 1 else F.conv2d
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._padding_pairs(), mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self):
        text = (str(self.in_channels) + ", " + str(self.out_channels) + ", kernel_size=" + str(self.kernel_size)
                + ", stride=" + str(self.stride))
        if isinstance(self.padding, str):
            text += ", padding=" + self.padding
        elif self.padding != (0,) * self._dims:
            text += ", padding=" + str(self.padding)
        if self.dilation != (1,) * self._dims:
            text += ", dilation=" + str(self.dilation)
        if self.output_padding != (0,) * self._dims:
            text += ", output_padding=" + str(self.output_padding)
        if self.groups != 1:
            text += ", groups=" + str(self.groups)
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += ", padding_mode=" + self.padding_mode
        return text


class Conv1d(_ConvNd):
    _dims = 1


class Conv2d(_ConvNd):
    _dims = 2


class _ConvTransposeNd(_ConvNd):
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError('Only "zeros" padding mode is supported for ' + type(self).__name__)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.output_padding = _ntuple(output_padding, self._dims)

    def _output_padding(self, input, output_size):
        if output_size is None:
            return self.output_padding
        n = self._dims
        leading = 2 if input.dim() == n + 2 else 1
        output_size = list(output_size)
        if len(output_size) == leading + n:
            output_size = output_size[leading:]
        if len(output_size) != n:
            raise ValueError("ConvTranspose" + str(n) + "D: for " + str(input.dim()) + "D input, output_size must "
                             "have " + str(n) + " or " + str(leading + n) + " elements (got "
                             + str(len(output_size)) + ")")
        smallest, largest = [], []
        for d in range(n):
            size = ((input.shape[d + leading] - 1) * self.stride[d] - 2 * self.padding[d]
                    + self.dilation[d] * (self.kernel_size[d] - 1) + 1)
            smallest.append(size)
            largest.append(size + self.stride[d] - 1)
        for d in range(n):
            if output_size[d] < smallest[d] or output_size[d] > largest[d]:
                raise ValueError("requested an output size of " + str(output_size) + ", but valid sizes range "
                                 "from " + str(smallest) + " to " + str(largest) + " (for an input of "
                                 + str(input.shape[leading:]) + ")")
        return tuple(output_size[d] - smallest[d] for d in range(n))

    def forward(self, input, output_size=None):
        conv = F.conv_transpose1d if self._dims == 1 else F.conv_transpose2d
        return conv(input, self.weight, self.bias, self.stride, self.padding,
                    self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    _dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    _dims = 2


class _MaxPoolNd(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return ("kernel_size=" + str(self.kernel_size) + ", stride=" + str(self.stride) + ", padding="
                + str(self.padding) + ", dilation=" + str(self.dilation) + ", ceil_mode=" + str(self.ceil_mode))


class MaxPool1d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self):
        return ("kernel_size=" + str(self.kernel_size) + ", stride=" + str(self.stride) + ", padding="
                + str(self.padding))


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return ("kernel_size=" + str(self.kernel_size) + ", stride=" + str(self.stride) + ", padding="
                + str(self.padding))


class _AdaptivePool(Module):
    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return "output_size=" + str(self.output_size)


class AdaptiveAvgPool1d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class _BatchNorm(Module):
    # 2 since running stats gained num_batches_tracked, as in PyTorch.
    _version = 2

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = Parameter(torch.ones(num_features, device=device, dtype=dtype))
            self.bias = Parameter(torch.zeros(num_features, device=device, dtype=dtype))
        else:
            self.weight = None
            self.bias = None
        if track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, device=device, dtype=dtype))
            self.register_buffer("running_var", torch.ones(num_features, device=device, dtype=dtype))
            self.register_buffer("num_batches_tracked", torch.tensor(0, dtype=torch.long, device=device))
        else:
            self.running_mean = None
            self.running_var = None
            self.num_batches_tracked = None

    def reset_running_stats(self):
        if self.track_running_stats:
            with torch.no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            init.zeros_(self.bias)

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with torch.no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:
                factor = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return F.batch_norm(input, self.running_mean if keep else None, self.running_var if keep else None,
                            self.weight, self.bias, use_batch, factor, self.eps)

    def extra_repr(self):
        return (str(self.num_features) + ", eps=" + str(self.eps) + ", momentum=" + str(self.momentum)
                + ", affine=" + str(self.affine) + ", bias=" + str(self.bias is not None)
                + ", track_running_stats=" + str(self.track_running_stats))


class BatchNorm1d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError("expected 2D or 3D input (got " + str(input.dim()) + "D input)")


class BatchNorm2d(_BatchNorm):
    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError("expected 4D input (got " + str(input.dim()) + "D input)")


class Dropout1d(Dropout):
    def forward(self, input):
        return F.dropout1d(input, self.p, self.training)


class Dropout2d(Dropout):
    def forward(self, input):
        return F.dropout2d(input, self.p, self.training)
