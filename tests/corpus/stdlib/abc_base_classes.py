# Abstract base classes for pluggable components: ABC with abstractmethod and
# abstract properties, the TypeError when instantiating an incomplete class,
# a concrete subclass, and register() for virtual subclasses.
from abc import ABC, ABCMeta, abstractmethod


class Dataset(ABC):
    @abstractmethod
    def __len__(self):
        ...

    @abstractmethod
    def __getitem__(self, i):
        ...

    @property
    @abstractmethod
    def name(self):
        ...

    def describe(self):
        return f"{self.name} with {len(self)} items"


class Half(Dataset):
    def __len__(self):
        return 3


class Squares(Half):
    def __getitem__(self, i):
        if i >= len(self):
            raise IndexError(i)
        return i * i

    @property
    def name(self):
        return "squares"


for cls in (Dataset, Half):
    try:
        cls()
    except TypeError as e:
        print(type(e).__name__, e)
s = Squares()
print(s.describe(), list(s), s[2], sorted(Dataset.__abstractmethods__), Squares.__abstractmethods__)
print(isinstance(s, Dataset), issubclass(Squares, ABC), type(Dataset) is ABCMeta)


class Plugin(metaclass=ABCMeta):
    @abstractmethod
    def run(self):
        pass


class External:
    def run(self):
        return "external run"


Plugin.register(External)
print(isinstance(External(), Plugin), issubclass(External, Plugin), External().run())
