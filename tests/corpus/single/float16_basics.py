# float16 (torch.half) as its own dtype: creation rounding to nearest even,
# overflow to inf and subnormals, arithmetic computed in float32 and rounded
# back after every op, promotion (float16 with bfloat16 is float32), reductions,
# matmul, a model in half precision, finfo, casts, and printing.
import torch
import torch.nn as nn

device = "tpu"
x = torch.tensor([1 / 3, 70000.0, 1e-6, -2.5, 65504.0, 1e-8], dtype=torch.float16, device=device)
print(x.cpu(), x.dtype, torch.half, x.element_size(), x.is_floating_point())
print(x.tolist())
y = torch.arange(6, device=device).half() / 7
print(y.cpu(), (y * 3 + 1).cpu(), (y.exp() - 1).cpu())
print((y + torch.ones(6, dtype=torch.bfloat16, device=device)).dtype, (y + 1.5).dtype, (y + torch.ones(6, device=device)).dtype)
print((y.double() + 0.1).dtype, y.float().dtype, torch.ones(2, dtype=torch.int64).half().tolist())
print(y.sum().item(), y.mean().item(), y.max().item(), torch.cumsum(y, 0).cpu())
torch.manual_seed(0)
a = torch.randn(4, 5).half().to(device)
b = torch.randn(5, 3).half().to(device)
print((a @ b).dtype, [round(v, 2) for v in (a @ b)[0].tolist()])
f = torch.finfo(torch.float16)
print(f.bits, f.eps, f.max, f.min, f.tiny, f.resolution)
print(torch.ones(2, dtype=torch.float16).type(), torch.tensor(65519.0).half().item(), torch.tensor(65520.0).half().item())

torch.manual_seed(0)
model = nn.Linear(3, 2).to(device).half()
print(model.weight.dtype, [round(v, 3) for v in model(torch.ones(1, 3, dtype=torch.float16, device=device))[0].tolist()])
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}["float16"]
print(ptdtype, torch.zeros(2, dtype=ptdtype).dtype)
