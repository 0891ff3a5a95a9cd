# Run at the end of `torch.random`'s body: fork_rng. The CPU generator
# is the only one here, so `devices` changes nothing.
import contextlib as _contextlib
import torch


@_contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    if not enabled:
        yield
        return
    torch._C.rng_save()
    try:
        yield
    finally:
        torch._C.rng_restore()
