# nn.utils.parameters_to_vector and vector_to_parameters (a flat vector of a
# model's weights, edited and written back, as evolution strategies and
# second-order methods do), their type error, and torch._dynamo.config.patch
# as a context manager and a decorator.
import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

device = "tpu"

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2)).to(device)
vec = parameters_to_vector(model.parameters())
print(vec.shape, round(vec.sum().item(), 5))
vector_to_parameters(vec * 0.5 + 1.0, model.parameters())
print(model[0].weight[0].detach().cpu())
print(model[2].bias.detach().cpu())
print(round(parameters_to_vector(model.parameters()).sum().item(), 5))
x = torch.randn(5, 3, device=device)
print(model(x).sum().item() > -1e9)
try:
    vector_to_parameters([1.0, 2.0], model.parameters())
except TypeError as e:
    print("TypeError:", e)

import torch._dynamo

print(torch._dynamo.config.cache_size_limit)
with torch._dynamo.config.patch(cache_size_limit=2):
    print(torch._dynamo.config.cache_size_limit)
print(torch._dynamo.config.cache_size_limit)
with torch._dynamo.config.patch("capture_scalar_outputs", True):
    print(torch._dynamo.config.capture_scalar_outputs)
print(torch._dynamo.config.capture_scalar_outputs)


@torch._dynamo.config.patch({"suppress_errors": True})
def inside():
    return torch._dynamo.config.suppress_errors


print(inside(), torch._dynamo.config.suppress_errors)
