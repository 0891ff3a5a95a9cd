# torch.fx.proxy: its names live in torch.fx (one body, fx/__init__.py).
from torch.fx import Proxy, Attribute, TraceError, TracerBase, GraphAppendingTracer
