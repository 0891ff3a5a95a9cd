# Class machinery that model registries rely on: a metaclass recording its
# subclasses, __init_subclass__ with class keywords, __set_name__ on
# descriptors, and __class_getitem__.
class RegistryMeta(type):
    registry = {}

    def __new__(mcls, name, bases, ns, **kw):
        cls = super().__new__(mcls, name, bases, ns)
        if bases:
            mcls.registry[name.lower()] = cls
        return cls


class Layer(metaclass=RegistryMeta):
    pass


class Linear(Layer):
    pass


class Conv(Layer):
    pass


print(sorted(RegistryMeta.registry), type(Linear).__name__, isinstance(Conv, RegistryMeta))


class Model:
    variants = {}

    def __init_subclass__(cls, /, name=None, depth=1, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.depth = depth
        Model.variants[name or cls.__name__] = cls


class Small(Model, name="small", depth=2):
    pass


class Large(Model, depth=24):
    pass


print({k: v.depth for k, v in Model.variants.items()})


class Field:
    def __set_name__(self, owner, name):
        self.name = "_" + name
        print(f"  __set_name__: {owner.__name__}.{name}")

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.name, None)

    def __set__(self, obj, value):
        setattr(obj, self.name, value)


class Config:
    lr = Field()
    epochs = Field()


c = Config()
c.lr = 0.1
print(c.lr, c.epochs, Config.lr.name, vars(c))


class Typed:
    def __class_getitem__(cls, item):
        return f"{cls.__name__}[{getattr(item, '__name__', item)}]"


print(Typed[int], Typed["x"], list[int], dict[str, float].__args__)
