# torch.fx.node: its names live in torch.fx (one body, fx/__init__.py).
from torch.fx import Node, map_arg, map_aggregate, Argument, Target, _format_arg, _get_qualified_name
