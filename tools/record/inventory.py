"""Records PyTorch's own description of its surface, for the inventory test.

Run once with PyTorch 2.15 installed (the test command itself never needs it):

    python tools/record/inventory.py > tests/inventory/torch-2.15.json

What it records, all read from the installed PyTorch rather than written by hand:
- `functions`: every public callable of `torch`, `torch.nn.functional`,
  `torch.nn.init` and every public method of `torch.Tensor` (in-place `_`
  variants included), each with its signatures: `inspect.signature` for the
  functions PyTorch writes in Python, otherwise its ATen schemas (the overloads
  its Python bindings are generated from; `self` is `input` for functions and
  dropped for methods; the `out=` overloads become one `out` keyword), and the
  signature lines of its docstring;
- `tensor_attributes` and `constants`: the public names that are values
  (`Tensor.shape`, `torch.float16`, `torch.pi`);
- `classes`: the public classes of `torch`, `torch.nn` (modules), `torch.optim`
  and `torch.optim.lr_scheduler`, each with `inspect.signature` of `__init__`;
- `module_reprs`: the repr of nn modules built with default and non-default
  arguments (the constructor calls are listed below; the reprs are PyTorch's);
- `grad_fns`: the `grad_fn` name of each listed expression over
  `x = torch.randn(2, 3, requires_grad=True)` (and friends);
- `promotion`: `torch.promote_types` for every pair of dtypes, and the result
  dtype of a tensor of each dtype with a Python bool, int and float;
- `dtypes`: each dtype's `str` and the repr of a small tensor of it.
"""

import inspect
import json
import re
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64"]


def render(value):
    """A default value as the Python source a user would write for it."""
    if value is inspect.Parameter.empty:
        return None
    if isinstance(value, torch.dtype):
        return str(value)
    if isinstance(value, torch.layout) or isinstance(value, torch.memory_format):
        return str(value)
    if isinstance(value, float) and value == int(value) and abs(value) < 1e16:
        return repr(value)
    return repr(value)


def from_inspect(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = []
    for p in sig.parameters.values():
        params.append({
            "name": p.name,
            "kind": {
                p.POSITIONAL_ONLY: "positional",
                p.POSITIONAL_OR_KEYWORD: "either",
                p.KEYWORD_ONLY: "keyword",
                p.VAR_POSITIONAL: "*args",
                p.VAR_KEYWORD: "**kwargs",
            }[p.kind],
            "default": render(p.default),
        })
    return params


SCHEMAS = {}
for schema in torch._C._jit_get_all_schemas():
    if schema.name.startswith("aten::"):
        SCHEMAS.setdefault(schema.name[len("aten::"):], []).append(schema)


def schema_default(arg):
    if not arg.has_default_value():
        return None
    value = arg.default_value
    if arg.name == "dtype" and isinstance(value, int):
        # `ScalarType? dtype=long` is `dtype=None` in Python, documented as
        # "if None, ... torch.int64".
        return "None"
    if isinstance(value, str):
        return repr(value)
    if str(arg.type) in ("Optional[int]", "int") and "ScalarType" in str(arg.type):
        return str(value)
    return repr(value)


def from_schemas(name, method):
    """The overloads of `aten::name` as Python sees them: out overloads merged."""
    overloads = []
    has_out = False
    for schema in SCHEMAS.get(name, []):
        args = list(schema.arguments)
        if any(a.is_out for a in args):
            has_out = True
            continue
        if any("Dimname" in str(a.type) for a in args):
            continue  # named tensors: a prototype PyTorch documents apart
        is_self_tensor = bool(args) and args[0].name == "self" and str(args[0].type) == "Tensor"
        if method:
            if not is_self_tensor:
                continue
            args = args[1:]
        elif args and args[0].name == "self" and not is_self_tensor:
            continue  # TorchScript's overloads over lists (`sum(int[] self)`)
        elif args and args[0].name in ("a", "t", "l"):
            continue  # TorchScript's overloads over Python scalars (`add.int(int a, int b)`)
        params = []
        for a in args:
            pname = "input" if (a.name == "self" and not method) else a.name
            params.append({
                "name": pname,
                "kind": "keyword" if a.kwarg_only else "either",
                "type": str(a.type),
                "default": schema_default(a),
            })
        if any(p["name"] == "pin_memory" for p in params):
            # The Python bindings of factory functions add `requires_grad`
            # (torchgen's gen_python_functions), which no ATen schema has.
            params.append({"name": "requires_grad", "kind": "keyword", "type": "bool",
                           "default": "False"})
        overloads.append({"overload": schema.overload_name, "params": params})
    return overloads, has_out


def doc_signatures(name, fn):
    doc = getattr(fn, "__doc__", None) or ""
    found = []
    for line in doc.splitlines():
        m = re.match(r"^\s*(?:torch\.|Tensor\.)?" + re.escape(name) + r"\((.*)\)\s*(->.*)?$", line)
        if m:
            found.append(m.group(1))
    return found


def describe(name, fn, method):
    entry = {"name": name}
    params = from_inspect(fn)
    if params is not None and not (method and inspect.ismethoddescriptor(fn)):
        if method and params and params[0]["name"] == "self":
            params = params[1:]
        entry["source"] = "python"
        entry["signatures"] = [params]
    else:
        overloads, has_out = from_schemas(name, method)
        entry["source"] = "aten" if overloads else "builtin"
        entry["signatures"] = [o["params"] for o in overloads]
        entry["out"] = has_out
    entry["doc"] = doc_signatures(name, fn)
    return entry


def public_functions(namespace, prefix):
    out = []
    for name in sorted(dir(namespace)):
        if name.startswith("_"):
            continue
        fn = getattr(namespace, name)
        if inspect.isclass(fn) or inspect.ismodule(fn) or not callable(fn):
            continue
        module = getattr(fn, "__module__", None) or ""
        if module and not module.startswith("torch"):
            continue
        out.append(describe(name, fn, method=False) | {"namespace": prefix})
    return out


def tensor_methods():
    out = []
    attributes = []
    for name in sorted(dir(torch.Tensor)):
        if name.startswith("_"):
            continue
        raw = inspect.getattr_static(torch.Tensor, name)
        value = getattr(torch.Tensor, name)
        if not callable(value) or isinstance(raw, (property,)) or type(raw).__name__ == "getset_descriptor":
            attributes.append(name)
            continue
        out.append(describe(name, value, method=True) | {"namespace": "Tensor"})
    return out, attributes


def classes(namespace, prefix, base=None):
    out = []
    for name in sorted(dir(namespace)):
        if name.startswith("_"):
            continue
        cls = getattr(namespace, name)
        if not inspect.isclass(cls):
            continue
        if base is not None and not (issubclass(cls, base) and cls is not base):
            continue
        if (getattr(cls, "__module__", "") or "").split(".")[0] != "torch":
            continue
        params = from_inspect(cls.__init__)
        if params and params[0]["name"] == "self":
            params = params[1:]
        out.append({"namespace": prefix, "name": name, "init": params})
    return out


# Modules built as users build them: first with the required arguments only,
# then with non-default ones. The reprs recorded are whatever PyTorch prints.
MODULES = [
    "nn.Linear(4, 3)", "nn.Linear(4, 3, bias=False)",
    "nn.Bilinear(2, 3, 4)", "nn.Identity()",
    "nn.Embedding(10, 3)", "nn.Embedding(10, 3, padding_idx=0)",
    "nn.Embedding(10, 3, max_norm=1.0)",
    "nn.LayerNorm(8)", "nn.LayerNorm((4, 8), eps=1e-06, elementwise_affine=False)",
    "nn.LayerNorm(8, bias=False)", "nn.RMSNorm(8)", "nn.RMSNorm(8, eps=1e-06)",
    "nn.GroupNorm(2, 4)", "nn.BatchNorm1d(4)", "nn.BatchNorm2d(4, momentum=0.2, affine=False)",
    "nn.Dropout()", "nn.Dropout(0.1)", "nn.Dropout(p=0.3, inplace=True)",
    "nn.Dropout1d(0.2)", "nn.Dropout2d(0.2)", "nn.AlphaDropout(0.2)",
    "nn.ReLU()", "nn.ReLU(inplace=True)", "nn.ReLU6()", "nn.LeakyReLU()",
    "nn.LeakyReLU(0.2)", "nn.LeakyReLU(0.2, inplace=True)", "nn.ELU()", "nn.ELU(alpha=0.5)",
    "nn.SELU()", "nn.CELU()", "nn.GELU()", "nn.GELU(approximate='tanh')", "nn.SiLU()",
    "nn.Mish()", "nn.Sigmoid()", "nn.Tanh()", "nn.Hardtanh()", "nn.Hardtanh(-2.0, 2.0)",
    "nn.Hardsigmoid()", "nn.Hardswish()", "nn.Softplus()", "nn.Softplus(beta=2.0, threshold=10.0)",
    "nn.Softsign()", "nn.Tanhshrink()", "nn.Softshrink()", "nn.Hardshrink(0.3)",
    "nn.Threshold(0.1, 20.0)", "nn.LogSigmoid()", "nn.PReLU()", "nn.PReLU(num_parameters=3, init=0.1)",
    "nn.GLU()", "nn.Softmax()", "nn.Softmax(dim=-1)", "nn.Softmax(dim=1)", "nn.LogSoftmax(dim=1)",
    "nn.Softmin(dim=1)",
    "nn.MSELoss()", "nn.MSELoss(reduction='sum')", "nn.L1Loss()", "nn.SmoothL1Loss()",
    "nn.SmoothL1Loss(beta=0.5)", "nn.HuberLoss()", "nn.HuberLoss(delta=2.0)",
    "nn.CrossEntropyLoss()", "nn.CrossEntropyLoss(label_smoothing=0.1)",
    "nn.CrossEntropyLoss(ignore_index=0, reduction='sum')", "nn.NLLLoss()", "nn.BCELoss()",
    "nn.BCEWithLogitsLoss()", "nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))",
    "nn.KLDivLoss()", "nn.KLDivLoss(reduction='batchmean', log_target=True)",
    "nn.CosineEmbeddingLoss()", "nn.MarginRankingLoss(margin=0.5)", "nn.SoftMarginLoss()",
    "nn.TripletMarginLoss()", "nn.PoissonNLLLoss()", "nn.GaussianNLLLoss()",
    "nn.CosineSimilarity()", "nn.CosineSimilarity(dim=0, eps=1e-06)", "nn.PairwiseDistance()",
    "nn.Flatten()", "nn.Flatten(0, -1)", "nn.Unflatten(1, (2, 3))",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))",
    "nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU())",
    "nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.GELU()) for _ in range(3)])",
    "nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))",
    "nn.Sequential()",
    "nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])",
    "nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4), nn.ReLU(), nn.ReLU(), nn.Linear(4, 2)])",
    "nn.ModuleList()",
    "nn.ModuleDict({'enc': nn.Linear(2, 3), 'act': nn.ReLU()})",
    "nn.ParameterList([nn.Parameter(torch.zeros(2)), nn.Parameter(torch.zeros(3, 4))])",
    "nn.ParameterDict({'a': nn.Parameter(torch.zeros(2))})",
    "nn.MultiheadAttention(8, 2)", "nn.MultiheadAttention(8, 2, batch_first=True, bias=False)",
    "nn.TransformerEncoderLayer(8, 2, dim_feedforward=16)",
    "nn.RNN(4, 8)", "nn.LSTM(4, 8, num_layers=2, batch_first=True)", "nn.GRU(4, 8)",
    "nn.Conv1d(3, 8, 3)", "nn.Conv2d(3, 8, 3)", "nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)",
    "nn.MaxPool2d(2)", "nn.AvgPool2d(2)", "nn.AdaptiveAvgPool2d(1)",
    "nn.Upsample(scale_factor=2)", "nn.PixelShuffle(2)", "nn.ZeroPad2d(1)",
    "nn.ConstantPad1d(2, 0.5)", "nn.ChannelShuffle(2)", "nn.Fold((4, 4), 2)", "nn.Unfold(2)",
]

# Expressions whose `grad_fn` name PyTorch reports; x, y: float32 leaves that
# require grad, i: int64 indices, m: a bool mask.
GRAD_FNS = [
    "x + y", "x - y", "x * y", "x / y", "x + 1", "x * 2", "-x", "x ** 2", "x ** y", "2 ** x",
    "x @ y.t()", "x.matmul(y.t())", "x.mm(y.t())", "torch.bmm(x[None], y.t()[None])",
    "x.exp()", "x.log()", "x.sqrt()", "x.rsqrt()", "x.abs()", "x.sin()", "x.cos()", "x.tan()",
    "x.tanh()", "x.sigmoid()", "x.relu()", "x.neg()", "x.reciprocal()", "x.square()",
    "x.log1p()", "x.expm1()", "x.erf()", "x.floor()", "x.ceil()", "x.round()", "x.trunc()",
    "x.sign()", "x.clamp(0, 1)", "x.clamp(min=0)", "x.clamp_min(0)", "x.clamp_max(1)",
    "x.pow(3)", "x.atan2(y)", "x.maximum(y)", "x.minimum(y)", "torch.where(m, x, y)",
    "x.masked_fill(m, 0.0)", "x.lerp(y, 0.5)", "x.addcmul(x, y)", "x.remainder(2)", "x.fmod(2)",
    "x.sum()", "x.sum(0)", "x.mean()", "x.mean(1)", "x.prod()", "x.prod(1)", "x.max()",
    "x.max(1).values", "x.min()", "x.amax(1)", "x.amin(1)", "x.std()", "x.var(1)", "x.norm()",
    "x.logsumexp(1)", "x.cumsum(1)", "x.cumprod(1)", "x.softmax(1)", "x.log_softmax(1)",
    "x.view(6)", "x.view(-1, 2)", "x.reshape(6)", "x.reshape(3, 2)", "x.flatten()",
    "x.t()", "x.T", "x.mT", "x.transpose(0, 1)", "x.permute(1, 0)", "x.unsqueeze(0)",
    "x[None]", "x.unsqueeze(0).squeeze(0)", "x.unsqueeze(0).squeeze()", "x.expand(4, 2, 3)",
    "x.expand_as(torch.zeros(4, 2, 3))", "x.repeat(2, 1)", "x.contiguous()",
    "x.t().contiguous()", "x.clone()", "x.detach()", "x[0]", "x[:, 1]", "x[0, 1]", "x[:, 1:]",
    "x[:1]", "x[::2]", "x[..., 0]", "x[i % 2]", "x[m]", "x[[0, 1], [1, 2]]", "x.narrow(1, 0, 2)",
    "x.select(1, 0)", "x.unbind(0)[0]", "x.split(1)[0]", "x.chunk(3, 1)[0]",
    "torch.cat([x, y])", "torch.stack([x, y])", "x.flip(0)", "x.roll(1, 0)", "x.diag()",
    "x.triu()", "x.tril()", "x.gather(1, i)", "x.index_select(1, i[0])",
    "x.float()", "x.double()", "x.to(torch.float64)", "x.half()", "x.bfloat16()",
    "F.relu(x)", "F.gelu(x)", "F.gelu(x, approximate='tanh')", "F.silu(x)", "F.elu(x)",
    "F.leaky_relu(x)", "F.softplus(x)", "F.mish(x)", "F.hardtanh(x)", "F.logsigmoid(x)",
    "F.softmax(x, 1)", "F.log_softmax(x, 1)", "F.dropout(x, 0.0)", "F.linear(x, y)",
    "F.layer_norm(x, (3,))", "F.normalize(x)", "F.mse_loss(x, y)", "F.l1_loss(x, y)",
    "F.smooth_l1_loss(x, y)", "F.huber_loss(x, y)", "F.cross_entropy(x, i[:, 0])",
    "F.nll_loss(x, i[:, 0])", "F.binary_cross_entropy_with_logits(x, y.detach().sigmoid())",
    "F.binary_cross_entropy(x.sigmoid(), y.detach().sigmoid())", "F.kl_div(x, y)",
    "F.embedding(i, x)", "F.cosine_similarity(x, y)", "F.pad(x, (1, 1))",
    "F.scaled_dot_product_attention(x[None], y[None], y[None])", "F.one_hot(i[0], 3).float() * x[0]",
]


def record_module_reprs():
    out = []
    for expr in MODULES:
        torch.manual_seed(0)
        try:
            module = eval(expr, {"nn": nn, "torch": torch})
            out.append({"expr": expr, "repr": repr(module)})
        except Exception as e:  # noqa: BLE001 (a constructor PyTorch refuses is recorded so)
            out.append({"expr": expr, "error": f"{type(e).__name__}: {e}"})
    return out


def record_grad_fns():
    out = []
    for expr in GRAD_FNS:
        torch.manual_seed(0)
        x = torch.randn(2, 3, requires_grad=True)
        y = torch.randn(2, 3, requires_grad=True)
        i = torch.tensor([[0, 1, 2], [2, 1, 0]])
        m = torch.tensor([[True, False, True], [False, True, False]])
        try:
            result = eval(expr, {"torch": torch, "F": F, "x": x, "y": y, "i": i, "m": m})
        except Exception as e:  # noqa: BLE001 (recorded as PyTorch refused it)
            out.append({"expr": expr, "error": f"{type(e).__name__}: {e}"})
            continue
        fn = result.grad_fn
        out.append({"expr": expr, "grad_fn": None if fn is None else type(fn).__name__})
    return out


def record_promotion():
    pairs = []
    for a in DTYPES:
        for b in DTYPES:
            pairs.append([a, b, str(torch.promote_types(getattr(torch, a), getattr(torch, b)))[6:]])
    scalars = []
    for a in DTYPES:
        t = torch.ones(2, dtype=getattr(torch, a))
        for kind, value in (("bool", True), ("int", 2), ("float", 2.5)):
            scalars.append([a, kind, str(torch.result_type(t, value))[6:]])
    return {"pairs": pairs, "scalars": scalars}


def record_dtypes():
    out = []
    for name in DTYPES:
        d = getattr(torch, name)
        values = [True, False, True] if name == "bool" else [1, 2, 3] if not d.is_floating_point else [1.5, -2.0, 0.25]
        out.append({"dtype": name, "str": str(d), "repr": repr(torch.tensor(values, dtype=d)),
                    "is_floating_point": d.is_floating_point, "itemsize": d.itemsize})
    aliases = {name: str(getattr(torch, name)) for name in
               ["float", "double", "half", "long", "int", "short", "bool", "cfloat"]}
    return {"dtypes": out, "aliases": aliases}


def main():
    methods, attributes = tensor_methods()
    constants = {
        prefix: sorted(n for n in dir(ns) if not n.startswith("_")
                       and not callable(getattr(ns, n)) and not inspect.ismodule(getattr(ns, n)))
        for ns, prefix in ((torch, "torch"), (F, "torch.nn.functional"))
    }
    functions = (public_functions(torch, "torch") + public_functions(F, "torch.nn.functional")
                 + public_functions(nn.init, "torch.nn.init") + methods)
    inventory = {
        "torch_version": torch.__version__,
        "functions": functions,
        "tensor_attributes": attributes,
        "constants": constants,
        "classes": (classes(torch, "torch") + classes(nn, "torch.nn", nn.Module)
                    + classes(torch.optim, "torch.optim")
                    + classes(torch.optim.lr_scheduler, "torch.optim.lr_scheduler")),
        "module_reprs": record_module_reprs(),
        "grad_fns": record_grad_fns(),
        "promotion": record_promotion(),
        "dtypes": record_dtypes(),
    }
    json.dump(inventory, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
