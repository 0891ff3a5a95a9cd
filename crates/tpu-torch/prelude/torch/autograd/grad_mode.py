# torch.autograd.grad_mode, where PyTorch defines the grad-mode classes.
from torch import no_grad, enable_grad, inference_mode, set_grad_enabled
