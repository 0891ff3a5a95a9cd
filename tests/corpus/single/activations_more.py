# LeakyReLU (DCGAN's discriminator), ELU, Hardtanh and ReLU6, as modules and
# functions: values, gradients, reprs and grad_fn names; the tensor device
# flags scripts test (DCGAN's `input.is_cuda or input.is_xpu`).
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
x = torch.tensor([-3.0, -0.5, 0.0, 0.5, 7.0], device=device, requires_grad=True)
for layer in [nn.LeakyReLU(0.2, inplace=True), nn.LeakyReLU(), nn.ELU(), nn.ELU(alpha=0.5),
              nn.Hardtanh(), nn.Hardtanh(-2.0, 2.0), nn.ReLU6(), nn.ReLU6(inplace=True)]:
    # An in-place activation needs a tensor that is not a leaf requiring grad.
    y = layer(x * 1.0)
    (grad,) = torch.autograd.grad(y.sum(), x)
    print(layer, [round(v, 4) for v in y.tolist()], grad.tolist(), y.grad_fn.name())
print([round(v, 4) for v in F.leaky_relu(x, 0.1).tolist()], [round(v, 4) for v in F.elu(x, 2.0).tolist()])
print(F.relu6(x * 2).tolist(), F.hardtanh(x, 0.0, 1.0).tolist())
try:
    nn.Hardtanh(1.0, -1.0)
except AssertionError as e:
    print("AssertionError:", e)
t = torch.ones(2, device=device)
try:
    nn.LeakyReLU(inplace=True)(x)
except RuntimeError as e:
    print("RuntimeError:", e)
print(t.is_cuda, t.is_xpu, t.is_mps, t.is_meta, t.is_sparse, t.is_quantized, torch.ones(2).is_cpu)
