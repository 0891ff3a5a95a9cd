import torch
x = torch.ones(2, 3, device="tpu")
y = (x * 2 + 1) @ torch.ones(3, 2, device="tpu")
print(y)
print(y.sum().item())
