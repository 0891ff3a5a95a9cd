# Run at the end of the `torch` package's body on the new interpreter
# (crates/tpu-torch), in its namespace: what the own interpreter does natively
# for tensors. Tensors made by torch._C are instances of `Tensor` from here on.

_C._set_tensor_class(Tensor)


class Size(tuple):
    # torch.Size: a tuple of ints that prints as PyTorch prints it.
    def __repr__(self):
        return "torch.Size([" + ", ".join(_py_repr(d) for d in self) + "])"

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n


def _shape(self):
    return Size(self._dims())


Tensor.shape = property(_shape)
Tensor.size = lambda self, dim=None: Size(self._dims()) if dim is None else self._dims()[dim]


def _binary(op, reflected=False):
    if reflected:
        return lambda self, other: _C.binary(op, other, self)
    return lambda self, other: _C.binary(op, self, other)


for _op, _dunder in [("add", "add"), ("sub", "sub"), ("mul", "mul"), ("div", "truediv"), ("pow", "pow")]:
    _py_setattr(Tensor, "__" + _dunder + "__", _binary(_op))
    _py_setattr(Tensor, "__r" + _dunder + "__", _binary(_op, reflected=True))
Tensor.__matmul__ = lambda self, other: _C.matmul(self, other)
Tensor.__rmatmul__ = lambda self, other: _C.matmul(other, self)
del _op, _dunder, _binary, _shape
