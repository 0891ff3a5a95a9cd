# torch.optim: the Optimizer base class as PyTorch's optimizer.py has it (param
# groups, state keyed by parameter, state_dict round trips, repr) and the
# single-tensor (for-loop, foreach=False) implementations PyTorch runs on CPU,
# step for step, so that training runs print the same losses. SGD and Adam/AdamW
# live here; _adaptive.py, run after this file in its namespace, has RMSprop,
# Adagrad and Adadelta:
# parts: _adaptive.py _lbfgs.py
import collections
import math
import torch


def _check(condition, message):
    if not condition:
        raise ValueError(message)


# Hooks every optimiser's step runs (PyTorch's global step hooks), keyed by
# their handles' ids as `torch.utils.hooks.RemovableHandle` keeps them.
_global_step_pre_hooks = {}
_global_step_post_hooks = {}

# The `step` functions already wrapped to run hooks: a subclass that inherits
# its parent's wrapped step is not wrapped again.
_hooked_steps = []


def _add_step_hook(hooks, hook):
    handle = torch.nn.RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def register_optimizer_step_pre_hook(hook):
    return _add_step_hook(_global_step_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    return _add_step_hook(_global_step_post_hooks, hook)


def _hook_step(cls):
    # As PyTorch's `_patch_step_function`: the class's step runs the global
    # and the optimiser's own pre-hooks (a pre-hook may return new
    # `(args, kwargs)`), the step, then the post-hooks. As there, `args`
    # starts with the optimiser itself.
    step = cls.step
    if step in _hooked_steps:
        return

    def hooked(*args, **kwargs):
        self = args[0]
        for hook in list(_global_step_pre_hooks.values()) + list(self._optimizer_step_pre_hooks.values()):
            result = hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(str(step) + " must return None or a tuple of (new_args, new_kwargs), "
                                       "but got " + str(result) + ".")
                args, kwargs = result
        out = step(*args, **kwargs)
        for hook in list(self._optimizer_step_post_hooks.values()) + list(_global_step_post_hooks.values()):
            hook(self, args, kwargs)
        return out

    _hooked_steps.append(hooked)
    cls.step = hooked


def _step_tensor():
    # PyTorch keeps each parameter's step count as a float32 scalar tensor.
    return torch.tensor(0.0)


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = collections.defaultdict(dict)
        self.param_groups = []
        self._optimizer_step_pre_hooks = {}
        self._optimizer_step_post_hooks = {}
        _hook_step(type(self))
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got torch.FloatTensor")
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(dict(param_group))

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError("param_group must be a dict, but got " + type(param_group).__name__)
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + type(param).__name__)
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        seen = set()
        for group in self.param_groups:
            for p in group["params"]:
                seen.add(id(p))
        for p in param_group["params"]:
            if id(p) in seen:
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def register_step_pre_hook(self, hook):
        return _add_step_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        return _add_step_hook(self._optimizer_step_post_hooks, hook)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def _state(self, p):
        # `self.state` is a defaultdict(dict) in PyTorch: reading a
        # parameter's state creates its (empty) entry.
        if p not in self.state:
            self.state[p] = {}
        return self.state[p]

    def state_dict(self):
        mappings = {}
        param_groups = []
        index = 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                if id(p) not in mappings:
                    mappings[id(p)] = index
                    index += 1
            packed["params"] = [mappings[id(p)] for p in group["params"]]
            param_groups.append(packed)
        state = {mappings[id(p)]: s for p, s in self.state.items()}
        return {"state": state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        groups = self.param_groups
        saved_groups = state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for g, ng in zip(groups, saved_groups):
            if len(g["params"]) != len(ng["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size "
                                 "of optimizer's group")
        id_map = {}
        for g, ng in zip(groups, saved_groups):
            for old_id, p in zip(ng["params"], g["params"]):
                id_map[old_id] = p
        self.state = collections.defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                self.state[param] = {key: (value if key == "step" or not isinstance(value, torch.Tensor)
                                           else value.to(dtype=param.dtype, device=param.device))
                                     for key, value in v.items()}
        new_groups = []
        for g, ng in zip(groups, saved_groups):
            new_group = dict(ng)
            new_group["params"] = g["params"]
            new_groups.append(new_group)
        self.param_groups = new_groups

    def __repr__(self):
        format_string = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += "Parameter Group " + str(i) + "\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += "    " + key + ": " + str(group[key]) + "\n"
        format_string += ")"
        return format_string

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check(lr >= 0.0, "Invalid learning rate: " + str(lr))
        _check(momentum >= 0.0, "Invalid momentum value: " + str(momentum))
        _check(weight_decay >= 0.0, "Invalid weight_decay value: " + str(weight_decay))
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                momentum = group["momentum"]
                dampening = group["dampening"]
                weight_decay = group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self._state(p)
                    grad = p.grad if not group["maximize"] else -p.grad
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    if momentum != 0:
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = grad.clone().detach()
                            state["momentum_buffer"] = buf
                        else:
                            buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                        if group["nesterov"]:
                            grad = grad.add(buf, alpha=momentum)
                        else:
                            grad = buf
                    p.add_(grad, alpha=-lr)
        return loss


class Adam(Optimizer):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check(lr >= 0.0, "Invalid learning rate: " + str(lr))
        _check(eps >= 0.0, "Invalid epsilon value: " + str(eps))
        _check(0.0 <= betas[0] < 1.0, "Invalid beta parameter at index 0: " + str(betas[0]))
        _check(0.0 <= betas[1] < 1.0, "Invalid beta parameter at index 1: " + str(betas[1]))
        _check(weight_decay >= 0.0, "Invalid weight_decay value: " + str(weight_decay))
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                beta1, beta2 = group["betas"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                amsgrad = group["amsgrad"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = _step_tensor()
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                        if amsgrad:
                            state["max_exp_avg_sq"] = torch.zeros_like(p)
                    exp_avg = state["exp_avg"]
                    exp_avg_sq = state["exp_avg_sq"]
                    state["step"] += 1
                    step = state["step"].item()
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            p.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(p, alpha=weight_decay)
                    exp_avg.lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = bias_correction2 ** 0.5
                    if amsgrad:
                        max_exp_avg_sq = state["max_exp_avg_sq"]
                        max_exp_avg_sq.copy_(torch.maximum(max_exp_avg_sq, exp_avg_sq))
                        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    else:
                        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    p.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                         foreach=foreach, maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused, decoupled_weight_decay=True)
