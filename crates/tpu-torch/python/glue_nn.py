# Run at the end of `torch.nn`'s body on the new interpreter (crates/tpu-torch):
# `Parameter` becomes a subclass of `torch.Tensor`, as in PyTorch, and the class
# `torch._C.parameter` makes.

_tpu_prelude_parameter = Parameter


class Parameter(torch.Tensor):
    def __new__(cls, data=None, requires_grad=True):
        return _tpu_prelude_parameter.__new__(cls, data, requires_grad)


torch._C._set_parameter_class(Parameter)

