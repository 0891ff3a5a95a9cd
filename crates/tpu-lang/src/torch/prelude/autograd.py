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
