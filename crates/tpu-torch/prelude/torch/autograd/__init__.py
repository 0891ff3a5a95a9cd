# torch.autograd: the grad-mode context managers (the same objects as torch's)
# and anomaly detection, as context managers and decorators.
from torch import no_grad, enable_grad, inference_mode, set_grad_enabled
import torch


class detect_anomaly:
    # As in PyTorch: anomaly detection is on inside the block (PyTorch also
    # warns on stderr that it slows the run; nothing is printed here).
    def __init__(self, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()

    def __enter__(self):
        torch.set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args):
        torch.set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __call__(self, func):
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return func(*args, **kwargs)
        return wrapper


class set_detect_anomaly:
    # As in PyTorch: set at once (so a plain call works) and restored when a
    # `with` block ends.
    def __init__(self, mode, check_nan=True):
        self.prev = torch.is_anomaly_enabled()
        self.prev_check_nan = torch.is_anomaly_check_nan_enabled()
        torch.set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *args):
        torch.set_anomaly_enabled(self.prev, self.prev_check_nan)


# grad (gradients returned rather than accumulated into .grad) and backward,
# over the runtime's backward pass (torch._C.autograd_grad and Tensor.backward).

def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if create_graph:
        raise NotImplementedError("torch.autograd.grad(create_graph=True) is not supported yet")
    if is_grads_batched:
        raise NotImplementedError("torch.autograd.grad(is_grads_batched=True) is not supported yet")
    inputs = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
    outputs = [outputs] if isinstance(outputs, torch.Tensor) else list(outputs)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    elif isinstance(grad_outputs, torch.Tensor):
        grad_outputs = [grad_outputs]
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    for i, out in enumerate(outputs):
        if not out.requires_grad:
            raise RuntimeError("element " + str(i) + " of tensors does not require grad and does not have a grad_fn")
    total = [None] * len(inputs)
    for k, (out, seed) in enumerate(zip(outputs, grad_outputs)):
        # The graph is kept until the last output has been run back.
        keep = bool(retain_graph) or k < len(outputs) - 1
        for i, g in enumerate(torch._C.autograd_grad(out, seed, inputs, keep)):
            if g is not None:
                total[i] = g if total[i] is None else total[i] + g
    for i, g in enumerate(total):
        if g is None:
            if materialize_grads:
                total[i] = torch.zeros_like(inputs[i])
            elif not allow_unused:
                raise RuntimeError("The differentiated Tensor at index " + str(i) + " appears to not have been used "
                                   + "in the graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(total)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    tensors = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
    if grad_tensors is None:
        grad_tensors = [None] * len(tensors)
    elif isinstance(grad_tensors, torch.Tensor):
        grad_tensors = [grad_tensors]
    for t, g in zip(tensors, grad_tensors):
        t.backward(g, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs)


# torch.autograd.Function: a differentiable op whose forward and backward the
# program writes. `apply` runs forward without recording, then gives the
# output a node (torch._C.custom_grad_node) that the backward pass stops at
# to call the program's backward with the output's gradient. Functions with
# one tensor output are supported.

class FunctionCtx:
    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument " + str(i)
                                + " is of type " + type(t).__name__)
        self.to_save = tensors

    @property
    def saved_tensors(self):
        return tuple(getattr(self, "to_save", ()))

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class BackwardCFunction(FunctionCtx):
    pass


def once_differentiable(fn):
    return fn


class _FunctionBackward:
    # What the node calls: the program's backward, its gradients checked
    # against the forward's inputs as PyTorch checks them, and handed back
    # one per tensor input.
    def __init__(self, cls, ctx, args):
        self.cls = cls
        self.ctx = ctx
        self.tensor_at = [isinstance(a, torch.Tensor) for a in args]

    def __call__(self, grad):
        name = self.cls.__name__ + "Backward"
        result = self.cls.backward(self.ctx, grad)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self.tensor_at)
        if len(result) != n:
            if len(result) > n and all(g is None for g in result[n:]):
                result = result[:n]
            else:
                raise RuntimeError("function " + name + " returned an incorrect number of gradients (expected "
                                   + str(n) + ", got " + str(len(result)) + ")")
        grads = []
        for i, g in enumerate(result):
            if not self.tensor_at[i]:
                if g is not None:
                    raise RuntimeError("function " + name + " returned a gradient different than None at position "
                                       + str(i + 1) + ", but the corresponding forward input was not a Variable")
                continue
            grads.append(g)
        return grads


class Function:
    def __init__(self, *args, **kwargs):
        pass

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = BackwardCFunction()
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        # The newer style: forward without ctx, then setup_context.
        separate = cls.setup_context is not Function.setup_context
        with torch.no_grad():
            out = cls.forward(*args, **kwargs) if separate else cls.forward(ctx, *args, **kwargs)
        if separate:
            cls.setup_context(ctx, args, out)
        if not (torch.is_grad_enabled() and any(ctx.needs_input_grad)):
            return out
        outs = out if isinstance(out, tuple) else (out,)
        tensors = [o for o in outs if isinstance(o, torch.Tensor)]
        if len(tensors) != 1:
            raise NotImplementedError("a torch.autograd.Function whose forward returns " + str(len(tensors))
                                      + " tensors is not supported yet (one is)")
        result = tensors[0]
        skip = getattr(ctx, "non_differentiable", ())
        if not result.dtype.is_floating_point or any(result is t for t in skip):
            return out
        inputs = [a for a in args if isinstance(a, torch.Tensor)]
        node = _FunctionBackward(cls, ctx, args)
        attached = torch._C.custom_grad_node(result, inputs, cls.__name__ + "Backward", node)
        if not isinstance(out, tuple):
            return attached
        return tuple(attached if o is result else o for o in out)


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace
