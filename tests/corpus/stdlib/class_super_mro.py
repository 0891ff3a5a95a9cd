# Cooperative multiple inheritance: __mro__ of a trainer built from mixins,
# super().__init__ passing keyword arguments along the MRO, and type()
# creating a class at run time.
class Base:
    def __init__(self, **kw):
        print("  Base.__init__", sorted(kw))
        super().__init__()


class Logging(Base):
    def __init__(self, log_every=10, **kw):
        print("  Logging.__init__", log_every)
        super().__init__(**kw)


class Checkpointing(Base):
    def __init__(self, save_dir="out", **kw):
        print("  Checkpointing.__init__", save_dir)
        super().__init__(**kw)


class Trainer(Logging, Checkpointing):
    def __init__(self, **kw):
        print("  Trainer.__init__")
        super().__init__(**kw)


print([k.__name__ for k in Trainer.__mro__])
Trainer(log_every=5, save_dir="ckpt", extra=1)
print(issubclass(Trainer, Base), Trainer.__bases__ == (Logging, Checkpointing), type(type), type(Trainer))


class Layer:
    def forward(self, x):
        return x + 1

    def __repr__(self):
        return f"{type(self).__name__}()"


class Scaled(Layer):
    def forward(self, x):
        return 2 * super().forward(x)


class Shifted(Scaled):
    def forward(self, x):
        return super().forward(x) - 3


print(Scaled().forward(1), Shifted().forward(1), super(Scaled, Shifted()).forward(1), Shifted())
Dyn = type("Dyn", (Scaled,), {"units": 8, "describe": lambda self: f"Dyn({self.units}) -> {self.forward(0)}"})
print(Dyn().describe(), Dyn.__bases__[0].__name__, Dyn.__name__, [k.__name__ for k in Dyn.__mro__])
try:
    class Bad(Scaled, Layer, Shifted):
        pass
except TypeError as e:
    print(type(e).__name__, e)
