# Attribute machinery in model-like classes: a property with setter, deleter and
# validation, a data descriptor with __set_name__ validating on assignment,
# classmethod alternative constructors and staticmethod helpers.
class Positive:
    def __set_name__(self, owner, name):
        self.private = "_" + name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.private)

    def __set__(self, obj, value):
        if value <= 0:
            raise ValueError(f"{self.private[1:]} must be positive, got {value}")
        setattr(obj, self.private, value)


class Optimizer:
    lr = Positive()

    def __init__(self, lr, momentum=0.0):
        self.lr = lr
        self._momentum = momentum

    @property
    def momentum(self):
        return self._momentum

    @momentum.setter
    def momentum(self, v):
        if not 0 <= v < 1:
            raise ValueError("momentum must be in [0, 1)")
        self._momentum = v

    @momentum.deleter
    def momentum(self):
        self._momentum = 0.0

    @classmethod
    def from_dict(cls, d):
        return cls(**d)

    @staticmethod
    def default_lr(batch_size):
        return 0.1 * batch_size / 256


opt = Optimizer.from_dict({"lr": 0.5, "momentum": 0.9})
print(opt.lr, opt.momentum, Optimizer.default_lr(512), opt.default_lr(128), type(Optimizer.__dict__["default_lr"]).__name__)
for bad in [lambda: setattr(opt, "lr", -1), lambda: setattr(opt, "momentum", 1.5)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
del opt.momentum
print(opt.momentum, isinstance(Optimizer.__dict__["momentum"], property), Optimizer.lr.__class__.__name__)
try:
    opt.nope
except AttributeError as e:
    print(type(e).__name__, e)
