# torch.randint's two overloads, (high, size) and (low, high, size), as
# positional arguments and as keywords (RandomSampler and forward-forward call
# it by keyword), and the calls PyTorch refuses.
import torch

device = "tpu"
torch.manual_seed(0)
print(torch.randint(10, (3,), device=device).tolist())
print(torch.randint(3, 10, (3,), device=device).tolist())
print(torch.randint(high=5, size=(4,), device=device).tolist())
print(torch.randint(0, 5, size=(4,), device=device).tolist())
print(torch.randint(low=2, high=5, size=(2, 2), device=device).tolist())
print(torch.randint(7, size=(1,)).item())
for call in [lambda: torch.randint(5), lambda: torch.randint(5, size=None)]:
    try:
        call()
    except TypeError:
        print("TypeError")
