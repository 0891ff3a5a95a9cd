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
