# Dataclasses as model and training configs: defaults, field(default_factory),
# __post_init__ derived fields, asdict, replace, fields(), the generated repr
# and ==, and the TypeError for a mutable default.
from dataclasses import asdict, astuple, dataclass, field, fields, replace, is_dataclass


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = True


@dataclass
class TrainConfig:
    model: GPTConfig = field(default_factory=GPTConfig)
    lr: float = 6e-4
    betas: tuple = (0.9, 0.95)
    tags: list = field(default_factory=list)
    warmup_iters: int = 2000
    max_iters: int = 600000
    head_size: int = field(init=False, repr=False)
    secret: str = field(default="x", compare=False, repr=False)

    def __post_init__(self):
        self.head_size = self.model.n_embd // self.model.n_head
        if self.warmup_iters > self.max_iters:
            raise ValueError("warmup longer than training")


small = GPTConfig(n_layer=4, n_head=4, n_embd=128)
print(small)
print(GPTConfig() == GPTConfig(), small == GPTConfig(), small != GPTConfig())
cfg = TrainConfig(model=small, tags=["tiny"])
print(cfg)
print(cfg.head_size)
print(asdict(cfg))
print(astuple(small))
other = replace(cfg, lr=1e-3)
print(other.lr, other.model is cfg.model, other.head_size, cfg.lr)
print([f.name for f in fields(TrainConfig)])
print([(f.name, f.type.__name__ if isinstance(f.type, type) else f.type) for f in fields(GPTConfig)][:3])
print(is_dataclass(cfg), is_dataclass(TrainConfig), is_dataclass(3))
a, b = TrainConfig(), TrainConfig()
a.tags.append("changed")
print(a.tags, b.tags)
try:
    TrainConfig(warmup_iters=10, max_iters=5)
except ValueError as e:
    print(type(e).__name__, e)
try:
    @dataclass
    class Bad:
        items: list = []
except ValueError as e:
    print(type(e).__name__, e)
try:
    GPTConfig(1, 2, 3, 4, 5, 6, 7, 8)
except TypeError as e:
    print(type(e).__name__, e)
