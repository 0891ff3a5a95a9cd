import torch
weight = torch.ones(3, 2, device="tpu")
x = torch.ones(2, 3, device="tpu")
y = x @ wieght
