# uint8 tensors written in place (item assignment, index_put_ with and
# without accumulate, wrapping past 255 as PyTorch's uint8 does), padded,
# and masked, as byte buffers (pickled objects, images) are.
import torch
import torch.nn.functional as F

device = "tpu"

u = torch.zeros(6, dtype=torch.uint8, device=device)
u[1] = 7
u[2:4] = torch.tensor([250, 3], dtype=torch.uint8, device=device)
print(u.cpu())
u.index_put_((torch.tensor([2, 2, 5], device=device),), torch.tensor([3, 4, 9], dtype=torch.uint8, device=device),
             accumulate=True)
print(u.cpu())
u[torch.tensor([0, 4], device=device)] = 200
print(u.cpu(), u.dtype)
print(F.pad(u.reshape(2, 3), (1, 1), value=1).cpu())
print(u[u > 5].cpu(), torch.where(u > 100, u, torch.zeros_like(u)).cpu())
