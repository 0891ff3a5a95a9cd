# torch.autograd.function: where PyTorch defines Function and its context;
# here they live in torch.autograd (autograd/__init__.py) and this module names them.
from torch.autograd import Function, FunctionCtx, BackwardCFunction, InplaceFunction, once_differentiable
