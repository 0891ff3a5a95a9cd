# Print options past what can be printed: a precision beyond C's int is
# "precision too big" when a float tensor is printed (not when it is set),
# whole-valued floats and integers print without the precision at all, and a
# moderate precision still prints every digit. (Found by the fuzz campaign:
# seed 261127219, case 3899, set precision=2**31 and exhausted memory.)
import torch

device = "tpu"

x = torch.tensor([1.5, 2.25], device=device).cpu()
torch.set_printoptions(precision=2**31)
try:
    print(x)
except ValueError as e:
    print("ValueError:", e)
print(torch.tensor([1.0, 2.0], device=device).cpu())
print(torch.tensor([3, 4], device=device).cpu())
torch.set_printoptions(precision=2**40, sci_mode=True)
try:
    print(torch.tensor([1.0, 2.0]))
except ValueError as e:
    print("ValueError in sci mode:", e)
torch.set_printoptions(precision=30, sci_mode=False)
print(torch.tensor([0.1], dtype=torch.float64))
torch.set_printoptions(profile="default")
print(x)
