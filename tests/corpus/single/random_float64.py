# Seeded float64 random streams: PyTorch's CPU generator draws 53-bit uniforms
# from two words each for doubles, and normal_fill runs in double.
import torch

device = "tpu"

torch.manual_seed(0)
print(torch.rand(3, dtype=torch.float64).tolist())
print(torch.randn(5, dtype=torch.float64).tolist())
print(torch.randn(20, dtype=torch.float64, device=device).cpu())
print(torch.randn(37, dtype=torch.float64)[-4:].tolist())
x = torch.zeros(18, dtype=torch.float64, device=device)
x.uniform_(-2.0, 3.0)
print(x[:3].tolist())
x.normal_(1.0, 0.5)
print(x[-3:].tolist())
print(torch.rand(2).tolist(), torch.rand(2, dtype=torch.bfloat16).tolist())
