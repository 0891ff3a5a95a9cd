# torch.fx.graph: its names live in torch.fx (one body, fx/__init__.py).
from torch.fx import Graph, PythonCode, _Namespace, _snake_case, _format_target
