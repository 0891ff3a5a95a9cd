# torch.nn: modules as plain Python classes over torch ops. Parameters and
# submodules are found by walking an instance's attributes in assignment order,
# which is the order PyTorch registers them in. The module's body is this file
# then its parts, in this order, in one namespace:
# parts: _loss.py _layers.py _cnn.py _rnn.py _transformer.py _activation.py
import collections
import math
import warnings
import torch
import torch.nn.functional as functional
import torch.nn.init as init

F = functional


class Parameter:
    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return torch._C.parameter(data, requires_grad)


class _IncompatibleKeys:
    # What load_state_dict returns: a namedtuple of the two key lists in
    # PyTorch, which prints a friendlier line when both are empty.
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return ("_IncompatibleKeys(missing_keys=" + repr(self.missing_keys) + ", unexpected_keys="
                + repr(self.unexpected_keys) + ")")


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join([(spaces * " ") + line for line in lines])


class RemovableHandle:
    # What registering a hook returns; `remove()` takes the hook out.
    _next_id = [0]

    def __init__(self, hooks):
        self.hooks_dict_ref = hooks
        self.id = RemovableHandle._next_id[0]
        RemovableHandle._next_id[0] += 1

    def remove(self):
        if self.id in self.hooks_dict_ref:
            del self.hooks_dict_ref[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.remove()


def _add_hook(module, slot, hook, prepend):
    hooks = vars(module).get(slot)
    if hooks is None:
        hooks = {}
        object.__setattr__(module, slot, hooks)
    handle = RemovableHandle(hooks)
    if prepend:
        old = dict(hooks)
        hooks.clear()
        hooks[handle.id] = hook
        hooks.update(old)
    else:
        hooks[handle.id] = hook
    return handle


class Module:
    # The version of the module's state_dict layout (`_metadata` in checkpoints).
    _version = 1

    def __init__(self):
        self.training = True

    def __setattr__(self, name, value):
        # PyTorch's checks before an attribute is stored: submodules need
        # Module.__init__ to have run, and a parameter is replaced only by a
        # Parameter or None.
        if isinstance(value, Module) and "training" not in vars(self):
            raise AttributeError("cannot assign module before Module.__init__() call")
        old = vars(self).get(name)
        if isinstance(old, Parameter) and value is not None and not isinstance(value, Parameter):
            kind = value.type() if isinstance(value, torch.Tensor) else type(value).__name__
            raise TypeError("cannot assign '" + kind + "' as parameter '" + name
                            + "' (torch.nn.Parameter or None expected)")
        object.__setattr__(self, name, value)

    def __call__(self, *args, **kwargs):
        compiled = vars(self).get("_compiled_call_impl")
        if compiled is not None:
            return compiled(*args, **kwargs)
        return self._call_impl(*args, **kwargs)

    def compile(self, *args, **kwargs):
        # In place, as PyTorch's Module.compile: calls go through a compiled
        # _call_impl; the class and the state_dict keys stay.
        object.__setattr__(self, "_compiled_call_impl", torch.compile(self._call_impl, *args, **kwargs))

    def _call_impl(self, *args, **kwargs):
        # Forward hooks as PyTorch runs them: pre-hooks may replace the
        # arguments (a non-tuple result is the one argument), hooks the output.
        pre = vars(self).get("_forward_pre_hooks")
        if pre:
            for hook in list(pre.values()):
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        out = self.forward(*args, **kwargs)
        post = vars(self).get("_forward_hooks")
        if post:
            for hook in list(post.values()):
                result = hook(self, args, out)
                if result is not None:
                    out = result
        return out

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        if with_kwargs:
            raise NotImplementedError("register_forward_pre_hook(with_kwargs=True) is not supported yet")
        return _add_hook(self, "_forward_pre_hooks", hook, prepend)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        if with_kwargs:
            raise NotImplementedError("register_forward_hook(with_kwargs=True) is not supported yet")
        return _add_hook(self, "_forward_hooks", hook, prepend)

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

    def register_buffer(self, name, tensor, persistent=True):
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        names = vars(self).get("_buffer_names")
        if names is None:
            names = []
            self._buffer_names = names
        if name not in names:
            names.append(name)
        if not persistent:
            vars(self).setdefault("_non_persistent_buffers", []).append(name)
        setattr(self, name, tensor)

    def named_buffers(self, prefix="", recurse=True):
        out = []
        for name in vars(self).get("_buffer_names", []):
            b = getattr(self, name)
            if b is not None:
                out.append((prefix + name, b))
        if recurse:
            for name, child in self.named_children():
                out.extend(child.named_buffers(prefix + name + "."))
        return out

    def buffers(self, recurse=True):
        return [b for _, b in self.named_buffers(recurse=recurse)]

    def get_submodule(self, target):
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(type(mod).__name__ + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target):
        module_path, param_name = target.rsplit(".", 1) if "." in target else ("", target)
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(type(mod).__name__ + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        # PyTorch's order: each module's own parameters, then its persistent
        # buffers, then its children's, depth first.
        if destination is None:
            destination = collections.OrderedDict()
            destination._metadata = collections.OrderedDict()
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, p in vars(self).items():
            if isinstance(p, Parameter):
                destination[prefix + name] = p if keep_vars else p.detach()
        skip = vars(self).get("_non_persistent_buffers", [])
        for name in vars(self).get("_buffer_names", []):
            b = getattr(self, name)
            if b is not None and name not in skip:
                destination[prefix + name] = b if keep_vars else b.detach()
        for name, child in self.named_children():
            child.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        own = self.state_dict(keep_vars=True)
        # A BatchNorm loading a state_dict of version 1 or without versions
        # (a plain dict) keeps its own num_batches_tracked, as PyTorch's
        # _BatchNorm._load_from_state_dict fills it in.
        metadata = getattr(state_dict, "_metadata", None) or {}
        kept = set()
        for prefix, m in self.named_modules():
            if isinstance(m, _BatchNorm) and m.track_running_stats:
                version = metadata.get(prefix, {}).get("version")
                if version is None or version < 2:
                    kept.add(prefix + ("." if prefix else "") + "num_batches_tracked")
        missing_keys = [k for k in own if k not in state_dict and k not in kept]
        unexpected_keys = [k for k in state_dict if k not in own]
        error_msgs = []
        with torch.no_grad():
            for name, value in state_dict.items():
                if name not in own:
                    continue
                param = own[name]
                if tuple(value.shape) != tuple(param.shape):
                    error_msgs.append("size mismatch for " + name + ": copying a param with shape "
                                      + str(value.shape) + " from checkpoint, the shape in current model is "
                                      + str(param.shape) + ".")
                    continue
                param.copy_(value)
        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: "
                                  + ", ".join('"' + k + '"' for k in unexpected_keys) + ". ")
            if len(missing_keys) > 0:
                error_msgs.insert(0, "Missing key(s) in state_dict: "
                                  + ", ".join('"' + k + '"' for k in missing_keys) + ". ")
        if len(error_msgs) > 0:
            raise RuntimeError("Error(s) in loading state_dict for " + type(self).__name__ + ":\n\t"
                               + "\n\t".join(error_msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

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
        target = kwargs.get("device", args[0] if args and not isinstance(args[0], torch.dtype) else None)
        if target is not None and not isinstance(target, torch.Tensor) and torch.device(target).type != "meta":
            if any(p.is_meta for p in self.parameters()):
                raise NotImplementedError("Cannot copy out of meta tensor; no data! Please use "
                                          "torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving "
                                          "module from meta to a different device.")
        for p in self.parameters():
            torch._C.set_data(p, p.data.to(*args, **kwargs))
            if p.grad is not None:
                p.grad = p.grad.to(*args, **kwargs)
        for m in self.modules():
            for name in vars(m).get("_buffer_names", []):
                b = getattr(m, name)
                if b is not None:
                    setattr(m, name, b.to(*args, **kwargs))
        return self

    def to_empty(self, *, device, recurse=True):
        # Parameters and buffers replaced by uninitialised ones of the same
        # shapes on `device`, for a reset_parameters() or init to fill.
        # The same Parameter objects, given new data, as PyTorch's _apply
        # does (FSDP and optimisers hold on to them).
        modules = self.modules() if recurse else [self]
        for m in modules:
            for name, p in list(m.named_parameters(recurse=False)):
                torch._C.set_data(p, torch.empty_like(p.data, device=device))
            for name in vars(m).get("_buffer_names", []):
                b = getattr(m, name)
                if b is not None:
                    setattr(m, name, torch.empty_like(b, device=device))
        return self

    def cpu(self):
        return self.to("cpu")

    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    def half(self):
        return self.to(torch.float16)

    def add_module(self, name, module):
        if not isinstance(module, Module) and module is not None:
            raise TypeError(type(module).__name__ + " is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError("module name should be a string. Got " + type(name).__name__)
        if hasattr(self, name) and name not in vars(self):
            raise KeyError("attribute '" + name + "' already exists")
        if name in vars(self) and not isinstance(vars(self)[name], Module) and vars(self)[name] is not None:
            raise KeyError("attribute '" + name + "' already exists")
        if "." in name:
            raise KeyError("module name can't contain \".\", got: " + name)
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        setattr(self, name, module)

    register_module = add_module

    def register_parameter(self, name, param):
        if "training" not in vars(self):
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError("parameter name should be a string. Got " + torch.typename(name))
        if "." in name:
            raise KeyError("parameter name can't contain \".\"")
        if name == "":
            raise KeyError("parameter name can't be empty string \"\"")
        if hasattr(self, name) and name not in vars(self):
            raise KeyError("attribute '" + name + "' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError("cannot assign '" + torch.typename(param) + "' object to parameter '" + name
                            + "' (torch.nn.Parameter or None required)")
        object.__setattr__(self, name, param)

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
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None,
                 dtype=None):
        super().__init__()
        if _weight is not None or _freeze:
            raise NotImplementedError("Embedding(_weight=..., _freeze=...) is not supported; "
                                      "use nn.Embedding.from_pretrained")
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        if padding_idx is not None and padding_idx < 0:
            padding_idx = num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx] = 0.0

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    def extra_repr(self):
        text = str(self.num_embeddings) + ", " + str(self.embedding_dim)
        if self.padding_idx is not None:
            text += ", padding_idx=" + str(self.padding_idx)
        if self.max_norm is not None:
            text += ", max_norm=" + str(self.max_norm)
        if self.norm_type != 2:
            text += ", norm_type=" + str(self.norm_type)
        if self.scale_grad_by_freq:
            text += ", scale_grad_by_freq=True"
        if self.sparse:
            text += ", sparse=True"
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

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (str(self.normalized_shape) + ", eps=" + str(self.eps)
                + ", elementwise_affine=" + str(self.elementwise_affine) + ", bias=" + str(self.bias is not None))


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels (" + str(num_channels) + ") must be divisible by num_groups ("
                             + str(num_groups) + ")")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(torch.ones(num_channels, device=device, dtype=dtype))
            self.bias = Parameter(torch.zeros(num_channels, device=device, dtype=dtype)) if bias else None
        else:
            self.weight = None
            self.bias = None

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (str(self.num_groups) + ", " + str(self.num_channels) + ", eps=" + str(self.eps) + ", affine="
                + str(self.affine) + ", bias=" + str(self.bias is not None))


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return "negative_slope=" + str(self.negative_slope) + (", inplace=True" if self.inplace else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return "alpha=" + str(self.alpha) + (", inplace=True" if self.inplace else "")


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        if max_val <= min_val:
            raise AssertionError("max_val (" + str(max_val) + ") must be greater than min_val (" + str(min_val)
                                 + ")")
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        inplace = ", inplace=True" if self.inplace else ""
        return "min_val=" + str(self.min_val) + ", max_val=" + str(self.max_val) + inplace


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

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


class ModuleDict(Module):
    # Submodules by name, in the order they were added; each is an attribute
    # of the dict, as in PyTorch, so it prints and is walked as a child.
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def _keys(self):
        return [k for k, v in vars(self).items() if isinstance(v, Module)]

    def __getitem__(self, key):
        if key not in self._keys():
            raise KeyError(key)
        return vars(self)[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        if key not in self._keys():
            raise KeyError(key)
        del vars(self)[key]

    def __len__(self):
        return len(self._keys())

    def __iter__(self):
        return iter(self._keys())

    def __contains__(self, key):
        return key in self._keys()

    def clear(self):
        for key in self._keys():
            del vars(self)[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    # Views of a dict, as PyTorch's are of `_modules` (printed `dict_keys([...])`).
    def keys(self):
        return {k: None for k in self._keys()}.keys()

    def items(self):
        return {k: vars(self)[k] for k in self._keys()}.items()

    def values(self):
        return {k: vars(self)[k] for k in self._keys()}.values()

    def update(self, modules):
        if not hasattr(modules, "__iter__"):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value pairs, but got "
                            + type(modules).__name__)
        if hasattr(modules, "keys") and hasattr(modules, "__getitem__"):
            for key in modules.keys():
                self[key] = modules[key]
            return
        for j, m in enumerate(modules):
            if not hasattr(m, "__iter__"):
                raise TypeError("ModuleDict update sequence element #" + str(j) + " should be Iterable; is "
                                + type(m).__name__)
            m = list(m)
            if len(m) != 2:
                raise ValueError("ModuleDict update sequence element #" + str(j) + " has length "
                                 + str(len(m)) + "; 2 is required")
            self[m[0]] = m[1]


class ParameterDict(Module):
    # Parameters by name, in the order they were added; a tensor stored in it
    # becomes a Parameter, as in PyTorch.
    def __init__(self, parameters=None):
        super().__init__()
        object.__setattr__(self, "_order", [])
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        if key not in self._order:
            raise KeyError(key)
        return vars(self)[key]

    def __setitem__(self, key, value):
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        if key not in self._order:
            self._order.append(key)
        object.__setattr__(self, key, value)

    def __delitem__(self, key):
        if key not in self._order:
            raise KeyError(key)
        self._order.remove(key)
        del vars(self)[key]

    def __len__(self):
        return len(self._order)

    def __iter__(self):
        return iter(list(self._order))

    def __contains__(self, key):
        return key in self._order

    # As PyTorch's: the keys a dict view, the items and values generators.
    def keys(self):
        return {k: None for k in self._order}.keys()

    def items(self):
        return ((k, vars(self)[k]) for k in list(self._order))

    def values(self):
        return (vars(self)[k] for k in list(self._order))

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def get(self, key, default=None):
        return self[key] if key in self._order else default

    def update(self, parameters):
        if hasattr(parameters, "keys") and hasattr(parameters, "__getitem__"):
            for key in parameters.keys():
                self[key] = parameters[key]
            return
        for key, value in parameters:
            self[key] = value

    def extra_repr(self):
        lines = []
        for key, p in self.items():
            if isinstance(p, torch.Tensor):
                size = "x".join(str(d) for d in p.size())
                device = " (" + str(p.device) + ")" if p.device.type == "tpu" else ""
                kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
                lines.append("  (" + str(key) + "): " + kind + " containing: [" + torch.typename(p)
                             + " of size " + size + device + "]")
            else:
                lines.append("  (" + str(key) + "): Object of type: " + type(p).__name__)
        return "\n".join(lines)


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

    def __repr__(self):
        # Runs of children with the same repr print once, as PyTorch prints
        # them: "(0-2): 3 x Linear(...)".
        reprs = [repr(m) for m in self._list()]
        if not reprs:
            return type(self).__name__ + "()"
        runs = []
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = []
        for first, last, text in runs:
            if first == last:
                line = "(" + str(first) + "): " + text
            else:
                line = ("(" + str(first) + "-" + str(last) + "): " + str(last - first + 1)
                        + " x " + text)
            lines.append(_addindent(line, 2))
        return type(self).__name__ + "(\n  " + "\n  ".join(lines) + "\n)"
