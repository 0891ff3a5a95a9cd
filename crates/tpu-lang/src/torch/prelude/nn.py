# torch.nn: modules as plain Python classes over torch ops. Parameters and
# submodules are found by walking an instance's attributes in assignment order,
# which is the order PyTorch registers them in.
import math
import torch
import torch.nn.functional as functional

F = functional


class Parameter:
    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return torch._C.parameter(data, requires_grad)


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join([(spaces * " ") + line for line in lines])


class Module:
    def __init__(self):
        self.training = True

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def forward(self, *args, **kwargs):
        raise NotImplementedError('Module [' + type(self).__name__ + '] is missing the required "forward" function')

    def named_children(self):
        return [(k, v) for k, v in vars(self).items() if isinstance(v, Module)]

    def children(self):
        return [m for _, m in self.named_children()]

    def named_modules(self, prefix=""):
        out = [(prefix, self)]
        for name, child in self.named_children():
            out.extend(child.named_modules(prefix + ("." if prefix else "") + name))
        return out

    def modules(self):
        return [m for _, m in self.named_modules()]

    def named_parameters(self, prefix="", recurse=True):
        out = []
        seen = set()
        own = [(k, v) for k, v in vars(self).items() if isinstance(v, Parameter)]
        for name, p in own:
            if id(p) not in seen:
                seen.add(id(p))
                out.append((prefix + name, p))
        if recurse:
            for name, child in self.named_children():
                for sub, p in child.named_parameters(prefix + name + "."):
                    if id(p) not in seen:
                        seen.add(id(p))
                        out.append((sub, p))
        # PyTorch returns generators: `next(model.parameters())` works, `len` does not.
        return iter(out)

    def parameters(self, recurse=True):
        return iter([p for _, p in self.named_parameters(recurse=recurse)])

    def state_dict(self):
        return {name: p.detach() for name, p in self.named_parameters()}

    def load_state_dict(self, state):
        own = dict(self.named_parameters())
        with torch.no_grad():
            for name, value in state.items():
                own[name].copy_(value)

    def train(self, mode=True):
        for m in self.modules():
            m.training = mode
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if set_to_none:
                p.grad = None
            elif p.grad is not None:
                p.grad.zero_()

    def to(self, *args, **kwargs):
        for p in self.parameters():
            torch._C.set_data(p, p.data.to(*args, **kwargs))
            if p.grad is not None:
                p.grad = p.grad.to(*args, **kwargs)
        return self

    def cpu(self):
        return self.to("cpu")

    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def extra_repr(self):
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self.named_children():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        text = type(self).__name__ + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


class Identity(Module):
    def forward(self, input):
        return input


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), device=device, dtype=dtype))
        if bias:
            self.bias = Parameter(torch.empty(out_features, device=device, dtype=dtype))
        else:
            self.bias = None
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1]
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return ("in_features=" + str(self.in_features) + ", out_features=" + str(self.out_features)
                + ", bias=" + str(self.bias is not None))


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None and padding_idx < 0:
            padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
        init.normal_(self.weight)
        if padding_idx is not None:
            with torch.no_grad():
                self.weight[padding_idx] = 0.0

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self):
        text = str(self.num_embeddings) + ", " + str(self.embedding_dim)
        if self.padding_idx is not None:
            text += ", padding_idx=" + str(self.padding_idx)
        return text


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.ones(self.normalized_shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(torch.zeros(self.normalized_shape, device=device, dtype=dtype))
            else:
                self.bias = None
        else:
            self.weight = None
            self.bias = None

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (str(self.normalized_shape) + ", eps=" + str(self.eps)
                + ", elementwise_affine=" + str(self.elementwise_affine))


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return "approximate=" + repr(self.approximate)


class SiLU(Module):
    def forward(self, input):
        return F.silu(input)


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        return input.sigmoid()


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return "dim=" + str(self.dim)


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return "dim=" + str(self.dim)


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError("dropout probability has to be between 0 and 1, but got " + str(p))
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training)

    def extra_repr(self):
        return "p=" + str(self.p) + ", inplace=" + str(self.inplace)


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            setattr(self, str(i), m)

    def _list(self):
        return self.children()

    def __getitem__(self, index):
        items = self._list()
        if isinstance(index, slice):
            return Sequential(*items[index])
        return items[index]

    def __len__(self):
        return len(self._list())

    def __iter__(self):
        return iter(self._list())

    def append(self, module):
        setattr(self, str(len(self._list())), module)
        return self

    def forward(self, input):
        for m in self._list():
            input = m(input)
        return input


class ModuleList(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            for i, m in enumerate(modules):
                setattr(self, str(i), m)

    def _list(self):
        return self.children()

    def __getitem__(self, index):
        items = self._list()
        if isinstance(index, slice):
            return ModuleList(items[index])
        return items[index]

    def __len__(self):
        return len(self._list())

    def __iter__(self):
        return iter(self._list())

    def append(self, module):
        setattr(self, str(len(self._list())), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self


class MSELoss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(Module):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class NLLLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, input, target):
        return F.nll_loss(input, target, ignore_index=self.ignore_index, reduction=self.reduction)


class _Init:
    # torch.nn.init, with PyTorch's formulas (bounds computed in Python floats).
    def calculate_gain(self, nonlinearity, param=None):
        if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
            return 1
        if nonlinearity == "tanh":
            return 5.0 / 3
        if nonlinearity == "relu":
            return math.sqrt(2.0)
        if nonlinearity == "leaky_relu":
            slope = 0.01 if param is None else param
            return math.sqrt(2.0 / (1 + slope ** 2))
        raise ValueError("Unsupported nonlinearity " + str(nonlinearity))

    def _fans(self, tensor):
        if tensor.dim() < 2:
            raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
        receptive = 1
        for d in tensor.shape[2:]:
            receptive *= d
        return tensor.shape[1] * receptive, tensor.shape[0] * receptive

    def uniform_(self, tensor, a=0.0, b=1.0):
        with torch.no_grad():
            return tensor.uniform_(a, b)

    def normal_(self, tensor, mean=0.0, std=1.0):
        with torch.no_grad():
            return tensor.normal_(mean, std)

    def zeros_(self, tensor):
        with torch.no_grad():
            return tensor.zero_()

    def ones_(self, tensor):
        with torch.no_grad():
            return tensor.fill_(1.0)

    def constant_(self, tensor, val):
        with torch.no_grad():
            return tensor.fill_(val)

    def kaiming_uniform_(self, tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
        fan_in, fan_out = self._fans(tensor)
        fan = fan_in if mode == "fan_in" else fan_out
        gain = self.calculate_gain(nonlinearity, a)
        std = gain / math.sqrt(fan)
        bound = math.sqrt(3.0) * std
        with torch.no_grad():
            return tensor.uniform_(-bound, bound)

    def kaiming_normal_(self, tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
        fan_in, fan_out = self._fans(tensor)
        fan = fan_in if mode == "fan_in" else fan_out
        std = self.calculate_gain(nonlinearity, a) / math.sqrt(fan)
        with torch.no_grad():
            return tensor.normal_(0, std)

    def xavier_uniform_(self, tensor, gain=1.0):
        fan_in, fan_out = self._fans(tensor)
        std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
        a = math.sqrt(3.0) * std
        with torch.no_grad():
            return tensor.uniform_(-a, a)

    def xavier_normal_(self, tensor, gain=1.0):
        fan_in, fan_out = self._fans(tensor)
        std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
        with torch.no_grad():
            return tensor.normal_(0.0, std)


init = _Init()
