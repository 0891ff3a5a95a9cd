# torch.accelerator: the device-generic API PyTorch 2.15 offers for "the
# accelerator this build has". Here that is the TPU, as with TorchTPU: a
# script written as `torch.accelerator.current_accelerator()` runs on "tpu".
import torch


def is_available():
    return True


def current_accelerator(check_available=False):
    return torch.device("tpu")


def device_count():
    return 1


def current_device_index():
    return 0


def set_device_index(device):
    index = device.index if isinstance(device, torch.device) else device
    if index not in (0, None, -1):
        raise RuntimeError("tpu:" + str(index) + " does not exist: this run has one TPU device, tpu:0")


set_device_idx = set_device_index
current_device_idx = current_device_index


def synchronize(device=None):
    import torch_tpu
    torch_tpu.sync()
