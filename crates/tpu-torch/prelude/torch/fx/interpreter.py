# torch.fx.interpreter: its names live in torch.fx (one body, fx/__init__.py).
from torch.fx import Interpreter, Transformer
