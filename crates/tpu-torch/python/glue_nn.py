# Run at the end of `torch.nn`'s body:
# `Parameter` becomes a subclass of `torch.Tensor`, as in PyTorch, and the class
# `torch._C.parameter` makes.

_tpu_prelude_parameter = Parameter


class _ParameterMeta(type(torch.Tensor)):
    # As PyTorch's: a tensor subclass made a parameter (a DTensor under
    # FSDP2, which sets `_is_param`) is an instance of Parameter too.
    def __instancecheck__(self, instance):
        if self is Parameter and _py_isinstance(instance, torch.Tensor) and getattr(instance, "_is_param", False):
            return True
        return super().__instancecheck__(instance)


class Parameter(torch.Tensor, metaclass=_ParameterMeta):
    def __new__(cls, data=None, requires_grad=True):
        return _tpu_prelude_parameter.__new__(cls, data, requires_grad)


torch._C._set_parameter_class(Parameter)
