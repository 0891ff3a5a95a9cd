# torch.nn.functional for convolutional networks (run after __init__.py in its
# namespace): F.pad, convolutions, pooling and batch norm, built from torch ops
# so that autograd covers them. A window over a tensor is `Tensor.unfold`, a
# view as in PyTorch; a convolution is the matrix product it lowers to on a
# TPU: every window's channels and kernel taps (im2col) against the weight.


def _tuple(value, n):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) == 1 and n > 1:
        return value * n
    return value


def _sizes(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def _renamed(out, name):
    torch._C.rename_grad_fn(out, name)
    return out


# Padding.

def pad(input, pad, mode="constant", value=None):
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           "padding length " + str(len(pad)) + " and input of dimension " + str(input.dim()))
    n = input.dim()
    before = [0] * n
    after = [0] * n
    for i in range(len(pad) // 2):
        before[n - 1 - i] = pad[2 * i]
        after[n - 1 - i] = pad[2 * i + 1]
    if mode == "constant":
        out = input
        for d in range(n):
            if before[d] < 0 or after[d] < 0:
                size = out.shape[d]
                start = -before[d] if before[d] < 0 else 0
                stop = size + after[d] if after[d] < 0 else size
                out = out.narrow(d, start, max(stop - start, 0))
        fill = 0.0 if value is None else float(value)
        out = torch._C.pad(out, [max(b, 0) for b in before], [max(a, 0) for a in after], fill)
        return _renamed(out, "ConstantPadNdBackward0")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError("Unsupported padding mode: " + str(mode))
    if len(pad) not in (2, 4, 6) or input.dim() not in (len(pad) // 2 + 1, len(pad) // 2 + 2):
        raise NotImplementedError("Padding size " + str(len(pad)) + " is not supported for " + str(input.dim())
                                  + "D input tensor.\nSupported combinations for non-constant padding:\n"
                                  "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                  "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                  "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    out = input
    for d in range(n):
        if before[d] == 0 and after[d] == 0:
            continue
        size = input.shape[d]
        if mode == "reflect" and (before[d] >= size or after[d] >= size):
            raise RuntimeError("Argument #4: Padding size should be less than the corresponding input dimension, "
                               "but got: padding (" + str(before[d]) + ", " + str(after[d]) + ") at dimension "
                               + str(d) + " of input " + _sizes(input.shape))
        index = []
        for i in range(-before[d], size + after[d]):
            if mode == "replicate":
                index.append(min(max(i, 0), size - 1))
            elif mode == "circular":
                index.append(i % size)
            else:
                j = abs(i)
                index.append(2 * (size - 1) - j if j >= size else j)
        out = out.index_select(d, torch.tensor(index, device=input.device))
    names = {"reflect": "ReflectionPad", "replicate": "ReplicationPad", "circular": "CircularPad"}
    return _renamed(out, names[mode] + str(len(pad) // 2) + "DBackward0")


# Convolutions.

def _conv_padding(padding, kernel, dilation, stride, n, strided_error):
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * n
        if padding != "same":
            raise RuntimeError("Invalid padding string: '" + padding + "'")
        if any(s != 1 for s in stride):
            strided_error("padding='same' is not supported for strided convolutions")
        out = []
        for i in range(n):
            total = dilation[i] * (kernel[i] - 1)
            out.append((total // 2, total - total // 2))
        return out
    padding = _tuple(padding, n)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    return [(p, p) for p in padding]


def _raise_runtime(message):
    raise RuntimeError(message)


def _conv(input, weight, bias, stride, padding, dilation, groups, n):
    dtype = torch._autocast_dtype_for(input, weight)
    if dtype is not None:
        return torch._autocast_lowp(lambda x, w, b: _conv(x, w, b, stride, padding, dilation, groups, n),
                                    (input, weight, bias), dtype)
    name = "conv" + str(n) + "d"
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError("Expected " + str(n + 1) + "D (unbatched) or " + str(n + 2) + "D (batched) input to "
                           + name + ", but got input of size: " + _sizes(input.shape))
    if weight.dim() != n + 2:
        raise RuntimeError("expected stride to be a single integer value or a list of " + str(weight.dim() - 2)
                           + " values to match the convolution dimensions, but got stride=" + _sizes(_tuple(stride, n)))
    unbatched = input.dim() == n + 1
    x = input.unsqueeze(0) if unbatched else input
    kernel = tuple(weight.shape[2:])
    stride = _tuple(stride, n)
    dilation = _tuple(dilation, n)
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero, but got " + _sizes(dilation))
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    pads = _conv_padding(padding, kernel, dilation, stride, n, _raise_runtime)
    out_channels = weight.shape[0]
    if out_channels % groups != 0:
        raise RuntimeError("Given groups=" + str(groups) + ", expected weight to be divisible by " + str(groups)
                           + " at dimension 0, but got weight of size [" + _sizes(weight.shape) + "] instead")
    channels = x.shape[1]
    if channels != weight.shape[1] * groups:
        raise RuntimeError("Given groups=" + str(groups) + ", weight of size " + _sizes(weight.shape)
                           + ", expected input" + _sizes(x.shape) + " to have " + str(weight.shape[1] * groups)
                           + " channels, but got " + str(channels) + " channels instead")
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != out_channels):
        raise RuntimeError("Given weight of size " + _sizes(weight.shape) + ", expected bias to be 1-dimensional with "
                           + str(out_channels) + " elements, but got bias of size " + _sizes(bias.shape) + " instead")
    if x.dtype != weight.dtype:
        raise RuntimeError("Input type (" + _type_word(x.dtype) + ") and bias type (" + _type_word(weight.dtype)
                           + ") should be the same")
    padded = [x.shape[2 + i] + pads[i][0] + pads[i][1] for i in range(n)]
    effective = [dilation[i] * (kernel[i] - 1) + 1 for i in range(n)]
    if any(padded[i] < effective[i] for i in range(n)):
        raise RuntimeError("Calculated padded input size per channel: (" + " x ".join(str(p) for p in padded)
                           + "). Kernel size: (" + " x ".join(str(k) for k in effective)
                           + "). Kernel size can't be greater than actual input size")
    if n == 1:
        x = x.unsqueeze(2)
        weight = weight.unsqueeze(2)
        kernel, stride, dilation, pads = (1,) + kernel, (1,) + stride, (1,) + dilation, [(0, 0)] + pads
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError("kernel size should be greater than zero, but got kernel_height: " + str(kernel[0])
                           + " kernel_width: " + str(kernel[1]))
    out = _conv2d_windows(x, weight, bias, kernel, stride, dilation, pads, groups)
    if n == 1:
        out = out.squeeze(2)
    if unbatched:
        out = out.squeeze(0)
    return _renamed(out, "ConvolutionBackward0")


def _type_word(dtype):
    return {torch.float32: "float", torch.float64: "double", torch.bfloat16: "c10::BFloat16",
            torch.float16: "c10::Half"}.get(dtype, str(dtype))


def _windows(x, kernel, stride, dilation):
    # [N, C, H, W] -> [N, C, OH, OW, kh, kw], a view.
    for i in range(2):
        x = x.unfold(2 + i, dilation[i] * (kernel[i] - 1) + 1, stride[i])
        if dilation[i] > 1:
            x = x[..., ::dilation[i]]
    return x


def _conv2d_windows(x, weight, bias, kernel, stride, dilation, pads, groups):
    # im2col: each output position's input channels and kernel taps in a
    # column ([N, groups, C/groups * kh * kw, OH * OW], one copy of the
    # windows), multiplied by the weight as [groups, O/groups, taps]. The
    # product is channels-first already, so a bias, a batch norm in eval mode
    # and an activation after it are the matmul's epilogue in Fused mode. The
    # cost model runs it as a TPU does (positions as rows, channels as the
    # contraction and the columns, tap by tap), from the `set_conv` note.
    if any(p != (0, 0) for p in pads):
        x = torch._C.pad(x, [0, 0, pads[0][0], pads[1][0]], [0, 0, pads[0][1], pads[1][1]], 0.0)
    win = _windows(x, kernel, stride, dilation)
    n, c, oh, ow = win.shape[0], win.shape[1], win.shape[2], win.shape[3]
    o = weight.shape[0]
    taps = (c // groups) * kernel[0] * kernel[1]
    torch._C.set_conv([groups, kernel[0] * kernel[1], n * oh * ow, c // groups, o // groups])
    try:
        if groups == 1 and o > oh * ow and n > 1:
            # Deep layers of small maps (ResNet's last stages): more output
            # channels than positions, so the batch is folded into the
            # columns, [taps, N * OH * OW], and one product computes every
            # sample, instead of the weight repeated for each of them (and
            # its gradient summed over them).
            cols = win.permute(1, 4, 5, 0, 2, 3).reshape(taps, n * oh * ow)
            out = torch.matmul(weight.reshape(o, taps), cols)
            out = out.reshape(o, n, oh * ow).transpose(0, 1)
        elif groups == 1:
            cols = win.permute(0, 1, 4, 5, 2, 3).reshape(n, taps, oh * ow)
            out = torch.matmul(weight.reshape(o, taps), cols)
        else:
            cols = win.reshape(n, groups, c // groups, oh, ow, kernel[0], kernel[1])
            cols = cols.permute(0, 1, 2, 5, 6, 3, 4).reshape(n, groups, taps, oh * ow)
            out = torch.matmul(weight.reshape(groups, o // groups, taps), cols)
    finally:
        torch._C.set_conv(None)
    out = out.reshape(n, o, oh, ow)
    if bias is not None:
        out = out + bias.reshape(1, o, 1, 1)
    return out


def conv1d(input, weight, bias=None, stride=[1], padding=[0], dilation=[1], groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv_transpose1d(input, weight, bias=None, stride=[1], padding=[0], output_padding=[0], groups=1, dilation=[1]):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=[1, 1], padding=[0, 0], output_padding=[0, 0], groups=1,
                     dilation=[1, 1]):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def _dilate(x, dim, step):
    # `step - 1` zeros between neighbours along `dim`: [a, b] -> [a, 0, b].
    if step == 1 or x.shape[dim] == 0:
        return x
    length = x.shape[dim]
    zeros_shape = list(x.shape)
    zeros_shape.insert(dim + 1, step - 1)
    spread = torch.cat([x.unsqueeze(dim + 1), torch.zeros(zeros_shape, dtype=x.dtype, device=x.device)], dim + 1)
    merged = list(x.shape)
    merged[dim] = length * step
    return spread.reshape(merged).narrow(dim, 0, (length - 1) * step + 1)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n):
    dtype = torch._autocast_dtype_for(input, weight)
    if dtype is not None:
        return torch._autocast_lowp(
            lambda x, w, b: _conv_transpose(x, w, b, stride, padding, output_padding, groups, dilation, n),
            (input, weight, bias), dtype)
    # The gradient of a convolution, computed as the convolution a TPU runs
    # for it (XLA's lhs dilation): the input spread by the stride, padded by
    # dilation * (kernel - 1) - padding (and output_padding after), against
    # the weight with its channel axes swapped and its taps reversed.
    name = "conv_transpose" + str(n) + "d"
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError("Expected " + str(n + 1) + "D (unbatched) or " + str(n + 2) + "D (batched) input to "
                           + name + ", but got input of size: " + _sizes(input.shape))
    unbatched = input.dim() == n + 1
    x = input.unsqueeze(0) if unbatched else input
    stride = _tuple(stride, n)
    padding = _tuple(padding, n)
    output_padding = _tuple(output_padding, n)
    dilation = _tuple(dilation, n)
    kernel = tuple(weight.shape[2:])
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError("Given transposed=1, weight of size " + _sizes(weight.shape) + ", expected input"
                           + _sizes(x.shape) + " to have " + str(weight.shape[0]) + " channels, but got "
                           + str(x.shape[1]) + " channels instead")
    for i in range(n):
        if output_padding[i] >= stride[i] and output_padding[i] >= dilation[i]:
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               "output_padding: " + str(output_padding) + ", stride: " + str(stride)
                               + ", dilation: " + str(dilation))
    in_per_group = weight.shape[0] // groups
    out_per_group = weight.shape[1]
    w = weight.reshape((groups, in_per_group, out_per_group) + kernel).transpose(1, 2)
    w = w.reshape((groups * out_per_group, in_per_group) + kernel).flip(list(range(2, 2 + n)))
    pads = []
    for i in reversed(range(n)):
        x = _dilate(x, 2 + i, stride[i])
        low = dilation[i] * (kernel[i] - 1) - padding[i]
        pads += [low, low + output_padding[i]]
    x = pad(x, pads)
    out = _conv(x, w, bias, 1, 0, dilation, groups, n)
    if unbatched:
        out = out.squeeze(0)
    return _renamed(out, "ConvolutionBackward0")


# Pooling.

def _pool_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_args(name, input, kernel_size, stride, padding, dilation, n):
    kernel = _tuple(kernel_size, n)
    stride = kernel if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(stride, n)
    padding = _tuple(padding, n)
    dilation = _tuple(dilation, n)
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(k <= 0 for k in kernel):
        raise RuntimeError("kernel size should be greater than zero, but got kH: " + str(kernel[0])
                           + " kW: " + str(kernel[-1]))
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero, but got dilationH: " + str(dilation[0])
                           + " dilationW: " + str(dilation[-1]))
    for i in range(n):
        if padding[i] > (dilation[i] * (kernel[i] - 1) + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got pad=" + str(padding[i])
                               + ", kernel_size=" + str(kernel[i]) + " and dilation=" + str(dilation[i]))
    return kernel, stride, padding, dilation


def _pool_input(name, input, n):
    if n == 2:
        if input.dim() not in (3, 4) or input.numel() == 0:
            raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
        return input.unsqueeze(0) if input.dim() == 3 else input
    if input.dim() not in (2, 3):
        raise RuntimeError(name + ": Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, "
                           "but got:" + _sizes(input.shape))
    x = input.unsqueeze(0) if input.dim() == 2 else input
    return x.unsqueeze(2)


def _pool_windows(x, kernel, stride, padding, dilation, ceil_mode, fill, n):
    # x: [N, C, H, W] (1-d pooling has H = 1); the windows [N, C, OH, OW, kh, kw]
    # over x padded with `fill`, and the output sizes.
    if n == 1:
        kernel, stride, padding, dilation = (1,) + kernel, (1,) + stride, (0,) + padding, (1,) + dilation
    sizes = [x.shape[2], x.shape[3]]
    outs = [_pool_size(sizes[i], kernel[i], stride[i], padding[i], dilation[i], ceil_mode) for i in range(2)]
    if any(o <= 0 for o in outs):
        raise RuntimeError("Given input size: (" + "x".join(str(v) for v in [x.shape[1]] + sizes[2 - n:])
                           + "). Calculated output size: (" + "x".join(str(v) for v in [x.shape[1]] + outs[2 - n:])
                           + "). Output size is too small")
    extra = []
    for i in range(2):
        need = (outs[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1
        extra.append(max(0, need - sizes[i] - 2 * padding[i]))
    if any(padding) or any(extra):
        x = torch._C.pad(x, [0, 0, padding[0], padding[1]],
                         [0, 0, padding[0] + extra[0], padding[1] + extra[1]], fill)
    win = _windows(x, kernel, stride, dilation)
    return win[:, :, :outs[0], :outs[1]], kernel, stride, padding, dilation, sizes, outs


def _max_pool(name, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, n):
    x = _pool_input(name, input, n)
    args = _pool_args(name, input, kernel_size, stride, padding, dilation, n)
    win, kernel, stride, padding, dilation, sizes, outs = _pool_windows(x, *args, ceil_mode, float("-inf"), n)
    b, c = x.shape[0], x.shape[1]
    values, picked = win.reshape(b, c, outs[0], outs[1], kernel[0] * kernel[1]).max(-1)
    values = _renamed(values, "MaxPool2DWithIndicesBackward0")
    indices = None
    if return_indices:
        rows = torch.arange(outs[0], device=x.device).reshape(outs[0], 1) * stride[0] - padding[0]
        cols = torch.arange(outs[1], device=x.device) * stride[1] - padding[1]
        h = rows + (picked // kernel[1]) * dilation[0]
        w = cols + (picked % kernel[1]) * dilation[1]
        indices = h * sizes[1] + w
    values, indices = _pool_output(input, values, indices, n)
    return (values, indices) if return_indices else values


def _pool_output(input, values, indices, n):
    batched = input.dim() == n + 2
    if n == 1:
        values = values.squeeze(2)
        indices = None if indices is None else indices.squeeze(2)
    if not batched:
        values = values.squeeze(0)
        indices = None if indices is None else indices.squeeze(0)
    return values, indices


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool("max_pool1d", input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    return _max_pool("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool("max_pool1d", input, kernel_size, stride, padding, dilation, ceil_mode, True, 1)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _max_pool("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)


def _avg_pool(name, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, n):
    if n == 1 and input.dim() not in (2, 3):
        raise RuntimeError("Expected 2 to 3 dimensions, but got " + str(input.dim())
                           + "-dimensional tensor for argument #1 'self' (while checking arguments for avg_pool1d)")
    x = _pool_input(name, input, n)
    args = _pool_args(name, input, kernel_size, stride, padding, 1, n)
    win, kernel, stride, padding, _, sizes, outs = _pool_windows(x, *args, ceil_mode, 0.0, n)
    b, c = x.shape[0], x.shape[1]
    total = win.reshape(b, c, outs[0], outs[1], kernel[0] * kernel[1]).sum(-1)
    if divisor_override is not None:
        out = total / divisor_override
    else:
        divisors = []
        uniform = True
        for oh in range(outs[0]):
            row = []
            for ow in range(outs[1]):
                area = 1
                for i, o in [(0, oh), (1, ow)]:
                    start = o * stride[i] - padding[i]
                    end = min(start + kernel[i], sizes[i] + padding[i])
                    if not count_include_pad:
                        end = min(end, sizes[i])
                        start = max(start, 0)
                    area *= end - start
                row.append(float(area))
                uniform = uniform and area == kernel[0] * kernel[1]
            divisors.append(row)
        if uniform:
            out = total / (kernel[0] * kernel[1])
        else:
            out = total / torch.tensor(divisors, dtype=total.dtype, device=total.device)
    out = _renamed(out, "AvgPool2DBackward0")
    return _pool_output(input, out, None, n)[0]


def avg_pool1d(input, kernel_size, stride=(), padding=[0], ceil_mode=False, count_include_pad=True):
    return _avg_pool("avg_pool1d", input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


def avg_pool2d(input, kernel_size, stride=(), padding=[0, 0], ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool("avg_pool2d", input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


def _adaptive(name, input, output_size, n, use_max):
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(name + "(): Expected " + str(n + 1) + "D or " + str(n + 2) + "D tensor, but got "
                           + _sizes(input.shape))
    x = input.unsqueeze(0) if input.dim() == n + 1 else input
    if n == 1:
        x = x.unsqueeze(2)
    sizes = list(_tuple(output_size, n))
    sizes = [x.shape[x.dim() - n + i] if s is None else s for i, s in enumerate(sizes)]
    if n == 1:
        sizes = [1] + sizes
    out = x
    for i in range(2):
        d = 2 + i
        size, target = out.shape[d], sizes[i]
        if size == target:
            continue
        if size % target == 0:
            win = out.unfold(d, size // target, size // target)
            out = win.amax(-1) if use_max else win.mean(-1)
            continue
        # Windows of uneven length: [floor(j * size / target), ceil((j + 1) * size / target)).
        starts = [(j * size) // target for j in range(target)]
        ends = [-((-(j + 1) * size) // target) for j in range(target)]
        width = max(e - s for s, e in zip(starts, ends))
        index = [min(s + k, e - 1) for s, e in zip(starts, ends) for k in range(width)]
        picked = out.index_select(d, torch.tensor(index, device=x.device))
        shape = list(out.shape)
        picked = picked.reshape(shape[:d] + [target, width] + shape[d + 1:]).movedim(d + 1, -1)
        if use_max:
            out = picked.amax(-1)
        else:
            valid = [[1.0 if s + k < e else 0.0 for k in range(width)] for s, e in zip(starts, ends)]
            counts = [float(e - s) for s, e in zip(starts, ends)]
            mask = torch.tensor(valid, dtype=out.dtype, device=x.device)
            view = [target] + [1] * (out.dim() - d - 1)
            total = (picked * mask.reshape(view + [width])).sum(-1)
            out = total / torch.tensor(counts, dtype=out.dtype, device=x.device).reshape(view)
    if n == 1:
        out = out.squeeze(2)
    if input.dim() == n + 1:
        out = out.squeeze(0)
    kind = "AdaptiveMaxPool" if use_max else "AdaptiveAvgPool"
    return _renamed(out, kind + str(n) + "DBackward0")


def adaptive_avg_pool1d(input, output_size):
    return _adaptive("adaptive_avg_pool1d", input, output_size, 1, False)


def adaptive_avg_pool2d(input, output_size):
    return _adaptive("adaptive_avg_pool2d", input, output_size, 2, False)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if return_indices:
        raise NotImplementedError("adaptive_max_pool1d(return_indices=True) is not supported yet")
    return _adaptive("adaptive_max_pool1d", input, output_size, 1, True)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    if return_indices:
        raise NotImplementedError("adaptive_max_pool2d(return_indices=True) is not supported yet")
    return _adaptive("adaptive_max_pool2d", input, output_size, 2, True)


# Batch norm.

def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    if input.dim() < 2:
        raise ValueError("Expected 2D or more input (got " + str(input.dim()) + "D input)")
    channels = input.shape[1]
    per_channel = input.numel() // channels if channels else 0
    if training and per_channel <= 1:
        raise ValueError("Expected more than 1 value per channel when training, got input size "
                         + str(input.shape))
    for name, t in [("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)]:
        if t is not None and t.numel() != channels:
            raise RuntimeError(name + " should contain " + str(channels) + " elements not " + str(t.numel()))
    view = [1, channels] + [1] * (input.dim() - 2)
    dims = [0] + list(range(2, input.dim()))
    if training or running_mean is None or running_var is None:
        mean = input.mean(dims, keepdim=True)
        centered = input - mean
        var = (centered * centered).mean(dims, keepdim=True)
        if training and running_mean is not None and running_var is not None:
            with torch.no_grad():
                m = momentum
                running_mean.copy_(mean.reshape(channels) * m + running_mean * (1 - m))
                unbiased = var.reshape(channels) * (per_channel / (per_channel - 1))
                running_var.copy_(unbiased * m + running_var * (1 - m))
        out = centered * (var + eps).rsqrt()
    else:
        out = (input - running_mean.reshape(view)) * (running_var.reshape(view) + eps).rsqrt()
    if weight is not None:
        out = out * weight.reshape(view)
    if bias is not None:
        out = out + bias.reshape(view)
    return _renamed(out, "NativeBatchNormBackward0")


def dropout1d(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
    if input.dim() not in (2, 3):
        raise RuntimeError("dropout1d: Expected 2D or 3D input, but received a " + str(input.dim())
                           + "D input. Note that dropout1d exists to provide channel-wise dropout on inputs "
                           "with 1 spatial dimension, a channel dimension, and an optional batch dimension "
                           "(i.e. 2D or 3D inputs).")
    if input.dim() == 2:
        return _feature_dropout(input.unsqueeze(0), p, training, False).squeeze(0)
    return _feature_dropout(input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    # As PyTorch's: any input of 2 dimensions or more is (N, C, ...), with
    # its warnings for the shapes it accepts but deprecates (a 3-D input is
    # batched 1-D, not an unbatched image).
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
    if input.dim() not in (3, 4):
        warnings.warn("dropout2d: Received a " + str(input.dim()) + "-D input to dropout2d, which is deprecated "
                      "and will result in an error in a future release. To retain the behavior and silence "
                      "this warning, please use dropout instead. Note that dropout2d exists to provide "
                      "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an "
                      "optional batch dimension (i.e. 3D or 4D inputs).", stacklevel=2)
    if input.dim() == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
                      "dim. This behavior will change in a future release to interpret the input as one "
                      "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                      "dropout behavior, please switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def _feature_dropout(input, p, training, inplace):
    # ATen's feature dropout: a bernoulli(1 - p) draw per (sample, channel),
    # divided by 1 - p, so a seed drops the channels PyTorch drops.
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1.0:
        return input.mul_(torch.zeros_like(input)) if inplace else input * torch.zeros_like(input)
    shape = [input.shape[0], input.shape[1]] + [1] * (input.dim() - 2)
    noise = torch.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1.0 - p)
    noise.div_(1.0 - p)
    return input.mul_(noise) if inplace else input * noise
