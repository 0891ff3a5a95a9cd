# torch.optim: the single-tensor (for-loop) implementations PyTorch runs on CPU,
# step for step, so that training runs print the same losses.
import math
import torch


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}
        params = list(params)
        if len(params) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(params[0], dict):
            params = [{"params": params}]
        self.param_groups = []
        for group in params:
            g = dict(defaults)
            g.update(group)
            g["params"] = list(g["params"])
            self.param_groups.append(g)

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if set_to_none:
                    p.grad = None
                elif p.grad is not None:
                    p.grad.zero_()

    def _state(self, p):
        key = id(p)
        if key not in self.state:
            self.state[key] = {}
        return self.state[key]


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False,
                 maximize=False):
        if lr < 0.0:
            raise ValueError("Invalid learning rate: " + str(lr))
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize})

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                momentum = group["momentum"]
                dampening = group["dampening"]
                weight_decay = group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    if momentum != 0:
                        state = self._state(p)
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
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False,
                 maximize=False, decoupled_weight_decay=False):
        if lr < 0.0:
            raise ValueError("Invalid learning rate: " + str(lr))
        if amsgrad:
            raise NotImplementedError("Adam(amsgrad=True) is not supported yet")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "maximize": maximize, "decoupled_weight_decay": decoupled_weight_decay})

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                beta1, beta2 = group["betas"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = 0.0
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                    exp_avg = state["exp_avg"]
                    exp_avg_sq = state["exp_avg_sq"]
                    state["step"] += 1.0
                    step = state["step"]
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
                    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    p.addcdiv_(exp_avg, denom, value=-step_size)
        return loss


class AdamW(Adam):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False,
                 maximize=False):
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                         maximize=maximize, decoupled_weight_decay=True)
