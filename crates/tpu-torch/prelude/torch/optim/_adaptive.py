# torch.optim's RMSprop, Adagrad and Adadelta (part of the torch.optim module,
# run after __init__.py in its namespace): PyTorch's _single_tensor_rmsprop,
# _single_tensor_adagrad and _single_tensor_adadelta, line by line.


class RMSprop(Optimizer):
    def __init__(self, params, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check(lr >= 0.0, "Invalid learning rate: " + str(lr))
        _check(eps >= 0.0, "Invalid epsilon value: " + str(eps))
        _check(momentum >= 0.0, "Invalid momentum value: " + str(momentum))
        _check(weight_decay >= 0.0, "Invalid weight_decay value: " + str(weight_decay))
        _check(alpha >= 0.0, "Invalid alpha value: " + str(alpha))
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                alpha = group["alpha"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                momentum = group["momentum"]
                centered = group["centered"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = _step_tensor()
                        state["square_avg"] = torch.zeros_like(p)
                        if momentum > 0:
                            state["momentum_buffer"] = torch.zeros_like(p)
                        if centered:
                            state["grad_avg"] = torch.zeros_like(p)
                    grad = p.grad if not group["maximize"] else -p.grad
                    square_avg = state["square_avg"]
                    state["step"] += 1
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                    if centered:
                        grad_avg = state["grad_avg"]
                        grad_avg.lerp_(grad, 1 - alpha)
                        avg = square_avg.clone().addcmul_(grad_avg, grad_avg, value=-1).sqrt_()
                    else:
                        avg = square_avg.sqrt()
                    avg = avg.add_(eps)
                    if momentum > 0:
                        buf = state["momentum_buffer"]
                        buf.mul_(momentum).addcdiv_(grad, avg)
                        p.add_(buf, alpha=-lr)
                    else:
                        p.addcdiv_(grad, avg, value=-lr)
        return loss


class Adagrad(Optimizer):
    def __init__(self, params, lr=0.01, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check(lr >= 0.0, "Invalid learning rate: " + str(lr))
        _check(lr_decay >= 0.0, "Invalid lr_decay value: " + str(lr_decay))
        _check(weight_decay >= 0.0, "Invalid weight_decay value: " + str(weight_decay))
        _check(initial_accumulator_value >= 0.0,
               "Invalid initial_accumulator_value value: " + str(initial_accumulator_value))
        _check(eps >= 0.0, "Invalid epsilon value: " + str(eps))
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        # Adagrad makes every parameter's state up front.
        for group in self.param_groups:
            for p in group["params"]:
                state = self._state(p)
                state["step"] = _step_tensor()
                state["sum"] = torch.full_like(p, group["initial_accumulator_value"])

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                lr_decay = group["lr_decay"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self._state(p)
                    state_sum = state["sum"]
                    state["step"] += 1
                    step = state["step"].item()
                    grad = p.grad if not group["maximize"] else -p.grad
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    clr = lr / (1 + (step - 1) * lr_decay)
                    state_sum.addcmul_(grad, grad, value=1)
                    std = state_sum.sqrt().add_(eps)
                    p.addcdiv_(grad, std, value=-clr)
        return loss


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check(lr >= 0.0, "Invalid learning rate: " + str(lr))
        _check(0.0 <= rho <= 1.0, "Invalid rho value: " + str(rho))
        _check(eps >= 0.0, "Invalid epsilon value: " + str(eps))
        _check(weight_decay >= 0.0, "Invalid weight_decay value: " + str(weight_decay))
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr = group["lr"]
                rho = group["rho"]
                eps = group["eps"]
                weight_decay = group["weight_decay"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = _step_tensor()
                        state["square_avg"] = torch.zeros_like(p)
                        state["acc_delta"] = torch.zeros_like(p)
                    square_avg = state["square_avg"]
                    acc_delta = state["acc_delta"]
                    state["step"] += 1
                    grad = p.grad if not group["maximize"] else -p.grad
                    if weight_decay != 0:
                        grad = grad.add(p, alpha=weight_decay)
                    square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                    std = square_avg.add(eps).sqrt_()
                    delta = acc_delta.add(eps).sqrt_()
                    delta.div_(std).mul_(grad)
                    acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                    p.add_(delta, alpha=-lr)
        return loss
