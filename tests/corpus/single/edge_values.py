# Float32 edge values through every elementwise function, binary op and
# reduction: infinities, NaN, signed zeros, huge and tiny magnitudes and a
# denormal. Printed with .tolist(), so every value is Python's exact repr.
import torch

device = "tpu"
x = torch.tensor([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 100.0, -100.0, 300.0,
                  1e30, -1e30, 1e-30, 1e-40, float("inf"), float("-inf"), float("nan")],
                 device=device)
print(x.tolist())
for name in ["neg", "abs", "relu", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid",
             "erf", "floor", "ceil", "round", "sign"]:
    print(name, getattr(torch, name)(x).tolist())
# sin and cos of huge arguments (1e30) need an exact argument reduction,
# which the WGSL kernels do not have: up to |x| = 300 here.
s = torch.tensor([0.0, -0.0, 1.0, -2.5, 100.0, -300.0, 1e-30, float("inf"), float("nan")],
                 device=device)
print("sin", torch.sin(s).tolist())
print("cos", torch.cos(s).tolist())

a = torch.tensor([1.0, -1.0, 0.0, -0.0, 0.0, float("inf"), float("-inf"), float("inf"),
                  float("nan"), 2.0, 3.0, -3.0, 5.5, -5.5, 1e30, 1e-30, 0.0, -2.0, 1.0, -1.0],
                 device=device)
b = torch.tensor([0.0, 0.0, 0.0, 0.0, -0.0, float("inf"), 2.0, -1.0,
                  1.0, float("nan"), 0.3, 0.3, -2.0, 2.0, 1e30, 1e30, -1.0, 0.5,
                  float("inf"), float("inf")],
                 device=device)
print("add", (a + b).tolist())
print("sub", (a - b).tolist())
print("mul", (a * b).tolist())
print("div", (a / b).tolist())
print("pow", (a ** b).tolist())
print("maximum", torch.maximum(a, b).tolist())
print("minimum", torch.minimum(a, b).tolist())
print("floor_divide", (a // b).tolist())
print("remainder", (a % b).tolist())
print("scalar", (a * 0.0).tolist(), (1.0 / a).tolist(), (a % 0.3).tolist())
print("scalar_pow", (a ** 2).tolist(), (a ** 0.5).tolist(), (a ** -1).tolist(),
      (2.0 ** a).tolist())

rows = torch.tensor([[1.0, float("nan"), 3.0],
                     [float("inf"), -1.0, 2.0],
                     [float("-inf"), float("inf"), 0.0],
                     [1e30, 1e30, -0.0],
                     [-0.0, -0.0, -0.0]], device=device)
print("sum", rows.sum(dim=1).tolist())
print("prod", rows.prod(dim=1).tolist())
print("amax", rows.amax(dim=1).tolist())
print("amin", rows.amin(dim=1).tolist())
print("max", rows.max(dim=1).values.tolist())
print("min", rows.min(dim=1).values.tolist())
print("cumsum", rows.cumsum(dim=1).tolist())
print("sum_all", rows[1:2].sum().item(), rows[3:].sum().item(), rows.sum().item())

# A chain the fused mode compiles into one kernel.
y = torch.tanh(x) * torch.sigmoid(x) + torch.exp(-x.abs())
print("chain", y.tolist())
