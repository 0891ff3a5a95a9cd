# torch.compile and torch_tpu.stablehlo; what compiling does is in
# torch._dynamo (_dynamo/__init__.py).


def compile(model=None, *, fullgraph=False, dynamic=None, backend=None, mode=None, options=None,
            name=None, disable=False, recompile_limit=None, isolate_recompiles=False,
            dynamic_shapes=None):
    import torch

    if dynamic_shapes is not None:
        raise NotImplementedError("torch.compile(dynamic_shapes=...) is not supported yet")

    def wrap(m):
        return torch._dynamo._compile(m, fullgraph, dynamic, "inductor" if backend is None else backend,
                                      mode, options, disable, name, recompile_limit)

    if model is None:
        return wrap
    return wrap(model)


def _stablehlo(fn, *example_inputs):
    # torch_tpu.stablehlo: the StableHLO module of fn's graph for these inputs
    # (one module per graph; graphs are separated by a blank line).
    import torch
    compiled = torch._dynamo._CompiledFunction(fn, getattr(fn, "__name__", "fn"), False, False)
    compiled(*example_inputs)
    return "\n".join(torch._C.compile_stablehlo(compiled._id))
