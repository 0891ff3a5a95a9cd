import torch
x = torch.ones(2, 3, device="tpu"
print(x)
