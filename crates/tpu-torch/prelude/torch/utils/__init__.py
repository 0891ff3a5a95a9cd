# torch.utils: a package; its one module here is torch.utils.data.
