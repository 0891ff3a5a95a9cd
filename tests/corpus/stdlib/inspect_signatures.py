# inspect for config plumbing: signature() of functions and classes, each
# parameter's kind and default, bind() for checking calls, isclass/isfunction/
# ismethod, and getmembers of a small class (sorted by name by inspect itself).
import inspect


def build_optimizer(params, lr=1e-3, *groups, momentum: float = 0.9, nesterov=False, **extra) -> dict:
    return {"lr": lr}


class Model:
    """A tiny model."""

    layers = 3

    def __init__(self, width, depth=2, *, act="relu"):
        self.width = width

    def forward(self, x):
        return x

    @staticmethod
    def helper(a, b):
        return a + b

    @classmethod
    def from_config(cls, cfg):
        return cls(**cfg)

    @property
    def size(self):
        return self.width


sig = inspect.signature(build_optimizer)
print(sig)
for name, p in sig.parameters.items():
    default = "<empty>" if p.default is inspect.Parameter.empty else repr(p.default)
    print(f"  {name}: {p.kind.name} default={default} annotation={p.annotation if p.annotation is not p.empty else '-'}")
print(sig.return_annotation)
print(inspect.signature(Model))
print(inspect.signature(Model.forward), inspect.signature(Model.from_config))
bound = sig.bind([1, 2], 0.1, momentum=0.5, betas=(0.9, 0.99))
bound.apply_defaults()
print(dict(bound.arguments))
try:
    sig.bind()
except TypeError as e:
    print(type(e).__name__, e)
accepted = {k for k in inspect.signature(Model).parameters}
cfg = {"width": 64, "depth": 3, "dropout": 0.1}
print(Model(**{k: v for k, v in cfg.items() if k in accepted}).width)
print(inspect.isclass(Model), inspect.isclass(Model(1)), inspect.isfunction(build_optimizer), inspect.isfunction(Model.forward))
m = Model(4)
print(inspect.ismethod(m.forward), inspect.ismethod(Model.forward), inspect.isbuiltin(len), inspect.isgeneratorfunction(build_optimizer))
print([name for name, _ in inspect.getmembers(Model) if not name.startswith("__")])
print([name for name, _ in inspect.getmembers(Model, inspect.isfunction)])
print(inspect.getdoc(Model), inspect.getmodule(Model).__name__)
print(inspect.Parameter.KEYWORD_ONLY, str(inspect.Parameter("x", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1)))
