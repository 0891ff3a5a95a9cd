# torch.optim.optimizer: where PyTorch defines the Optimizer base class and the
# global step hooks; here they live in torch.optim (optim/__init__.py) and this module
# names them, so that programs importing from either place work.
from torch.optim import Optimizer, register_optimizer_step_pre_hook, register_optimizer_step_post_hook
