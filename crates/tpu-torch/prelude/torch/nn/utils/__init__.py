# torch.nn.utils
import torch


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if len(grads) == 0:
        return torch.tensor(0.0)
    norms = [torch.norm(g, norm_type) for g in grads]
    total_norm = torch.norm(torch.stack(norms), norm_type)
    if error_if_nonfinite and not bool(torch.isfinite(total_norm).item()):
        raise RuntimeError("The total norm of order " + str(float(norm_type))
                           + " for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this error"
                           " and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(clip_coef_clamped.to(g.device))
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    with torch.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)


def parameters_to_vector(parameters):
    return torch.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    if not isinstance(vec, torch.Tensor):
        raise TypeError("expected torch.Tensor, but got: " + torch.typename(vec))
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param
