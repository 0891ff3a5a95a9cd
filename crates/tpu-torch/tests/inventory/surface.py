# What `import torch` gives a program, described as data: every public
# function, method and class of the torch namespaces this project has, with
# its parameters (names, kinds, defaults' reprs), printed as one JSON list of
# [namespace, name, kind, params or None, refuses]. The inventory test
# (`tests/inventory.rs`) runs it on the interpreter under test and compares
# the result with what PyTorch 2.15 recorded about itself.
#
# A function that only raises NotImplementedError (a stub naming what is
# missing; its body starts with `raise NotImplementedError(...)`) is
# present but not supported: `refuses` is true.
import ast
import inspect
import json
import sys
import textwrap
import types

import torch
import torch.nn
import torch.nn.functional
import torch.nn.init
import torch.optim
import torch.optim.lr_scheduler
import torch.utils.data

MODULES = [
    "torch",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.utils.data",
]
KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "either",
    inspect.Parameter.KEYWORD_ONLY: "keyword",
    inspect.Parameter.VAR_POSITIONAL: "varargs",
    inspect.Parameter.VAR_KEYWORD: "varkeywords",
}


def params(f, skip_self=False):
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    out = [
        [p.name, KINDS[p.kind], None if p.default is inspect.Parameter.empty else repr(p.default)]
        for p in sig.parameters.values()
    ]
    return out[1:] if skip_self and out else out


def refuses(f):
    if not isinstance(f, types.FunctionType):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(f)))
    except (OSError, TypeError, SyntaxError):
        return False
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return False
    first = defs[0].body[0]
    if not isinstance(first, ast.Raise) or first.exc is None:
        return False
    callee = first.exc.func if isinstance(first.exc, ast.Call) else first.exc
    return isinstance(callee, ast.Name) and callee.id == "NotImplementedError"


items = []
for ns in MODULES:
    namespace = vars(sys.modules[ns])
    for name in sorted(namespace):
        value = namespace[name]
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        if isinstance(value, type):
            init = value.__init__ if value.__init__ is not object.__init__ else None
            described = params(init, True) if init is not None else []
            items.append([ns, name, "class", described, refuses(init)])
        elif callable(value) and not isinstance(value, torch.dtype):
            items.append([ns, name, "function", params(value), refuses(value)])
        else:
            items.append([ns, name, "value", None, False])
for name in sorted(dir(torch.Tensor)):
    if name.startswith("_"):
        continue
    value = inspect.getattr_static(torch.Tensor, name)
    if callable(value) and not isinstance(value, property):
        described = params(getattr(torch.Tensor, name), True)
        items.append(["Tensor", name, "function", described, refuses(value)])
    else:
        items.append(["Tensor", name, "value", None, False])
print(json.dumps(items))
