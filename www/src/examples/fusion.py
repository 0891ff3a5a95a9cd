import torch
import torch_tpu

# The same computation in Strict mode (one kernel per op) and in Fused mode
# (ops deferred and fused into generated kernels at the read). The Kernels
# panel counts the kernels launched in each mode; compare their lists.
def gelu_layer(x, w, b):
    h = x @ w + b
    return 0.5 * h * (1.0 + torch.tanh(0.7978845608 * (h + 0.044715 * h ** 3)))

torch.manual_seed(0)
x = torch.randn(64, 128, device="tpu")
w = torch.randn(128, 128, device="tpu") / 11.3
b = torch.zeros(128, device="tpu")

torch_tpu.set_eager_mode("strict")
strict = gelu_layer(x, w, b).sum().item()
torch_tpu.set_eager_mode("fused")
fused = gelu_layer(x, w, b).sum().item()
print("strict:", round(strict, 3))
print("fused: ", round(fused, 3))
print("same result:", abs(strict - fused) < 1e-3)
