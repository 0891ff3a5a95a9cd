# torch.amp: autocast (defined with torch's other switches in torch/_autocast.py)
# and GradScaler, which scales a loss up before backward so that small
# half-precision gradients do not flush to zero, unscales the gradients
# before the optimizer's step, skips the step when a gradient is inf or NaN,
# and grows or backs off the scale as PyTorch's does.
import torch
from torch import autocast

__all__ = ["autocast", "GradScaler", "is_autocast_available", "custom_fwd", "custom_bwd"]


def is_autocast_available(device_type):
    return device_type in torch._autocast_state


def custom_fwd(fwd=None, *, device_type, cast_inputs=None):
    # A custom autograd Function's forward: with `cast_inputs`, run with
    # autocast off on its floating inputs cast to that dtype.
    if fwd is None:
        return lambda f: custom_fwd(f, device_type=device_type, cast_inputs=cast_inputs)

    def forward(*args, **kwargs):
        if cast_inputs is None or not torch.is_autocast_enabled(device_type):
            return fwd(*args, **kwargs)
        cast = [a.to(cast_inputs) if isinstance(a, torch.Tensor) and a.is_floating_point() else a for a in args]
        with autocast(device_type=device_type, enabled=False):
            return fwd(*cast, **kwargs)
    forward.__name__ = getattr(fwd, "__name__", "forward")
    return forward


def custom_bwd(bwd=None, *, device_type):
    if bwd is None:
        return lambda f: custom_bwd(f, device_type=device_type)
    return bwd


class _OptState:
    READY, UNSCALED, STEPPED = 0, 1, 2


class GradScaler:
    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            import warnings
            warnings.warn("torch.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale = init_scale
        self._scale = None
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._growth_tracker = None
        self._per_optimizer_states = {}

    def _lazy_init(self, device):
        self._scale = torch.full((), self._init_scale, dtype=torch.float32, device=device)
        self._growth_tracker = torch.full((), self._init_growth_tracker, dtype=torch.int32, device=device)

    def scale(self, outputs):
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._lazy_init(outputs.device)
            return outputs * self._scale.to(outputs.device)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer), {"stage": _OptState.READY, "found_inf": None})

    def unscale_(self, optimizer):
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state["stage"] is _OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] is _OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        if self._scale is None:
            raise AssertionError("Attempted unscale_ but _scale is None.  This may indicate your script did not "
                                 "use scaler.scale(loss or outputs) earlier in the iteration.")
        inv_scale = self._scale.double().reciprocal().float()
        found = False
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not bool(torch.isfinite(p.grad).all()):
                        found = True
                    p.grad.mul_(inv_scale.to(p.grad.device))
        state["found_inf"] = found
        state["stage"] = _OptState.UNSCALED

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._state(optimizer)
        if state["stage"] is _OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is _OptState.READY:
            self.unscale_(optimizer)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = _OptState.STEPPED
        return result

    def update(self, new_scale=None):
        if not self._enabled:
            return
        if new_scale is not None:
            value = new_scale.item() if isinstance(new_scale, torch.Tensor) else float(new_scale)
            self._scale = torch.full((), value, dtype=torch.float32, device=self._scale.device)
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values() if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            # torch._amp_update_scale_: back off at once on an inf, grow after
            # growth_interval clean steps in a row.
            if any(found):
                self._scale = self._scale * self._backoff_factor
                self._growth_tracker = torch.zeros_like(self._growth_tracker)
            else:
                self._growth_tracker = self._growth_tracker + 1
                if self._growth_tracker.item() == self._growth_interval:
                    self._scale = self._scale * self._growth_factor
                    self._growth_tracker = torch.zeros_like(self._growth_tracker)
        self._per_optimizer_states = {}

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        if not self._enabled:
            return {}
        tracker = self._init_growth_tracker if self._growth_tracker is None else self._growth_tracker.item()
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale = torch.full((), state_dict["scale"], dtype=torch.float32, device=self._scale.device)
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])


GradScaler.__module__ = "torch.amp.grad_scaler"
# PyTorch has it at torch.GradScaler too.
torch.GradScaler = GradScaler
