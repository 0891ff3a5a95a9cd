import torch
x = torch.ones(2, 3, device="tpu")
w = torch.ones(2, 2, device="tpu")
y = x @ w
