# torch.utils.data.dataloader: the module PyTorch defines DataLoader in, which
# programs also import it from (`from torch.utils.data.dataloader import
# DataLoader`, as makemore does). Here DataLoader lives in the package itself.
from torch.utils.data import DataLoader, default_collate, default_convert, get_worker_info
