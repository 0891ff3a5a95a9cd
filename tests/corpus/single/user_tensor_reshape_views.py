# Reshaping image batches: view, reshape, flatten/unflatten, movedim, permute and
# contiguity, expand and repeat, flip and roll, narrow and select, squeeze dims.
import torch

device = "tpu"

batch = torch.arange(2 * 3 * 4, device=device).reshape(2, 3, 4)
print(batch.shape, batch.stride(), batch.is_contiguous())

hwc = batch.permute(0, 2, 1)
print(hwc.shape, hwc.stride(), hwc.is_contiguous())
print(hwc.contiguous().is_contiguous(), hwc.contiguous().stride())
print(torch.movedim(batch, 1, -1).shape, batch.movedim(0, 2).stride())

flat = batch.flatten(1)
print(flat.shape, torch.flatten(batch).shape)
print(flat.unflatten(1, (4, 3)).shape, flat.unflatten(-1, (2, -1)).shape)
print(batch.view(-1, 4).shape, batch.view(6, 4)[5].tolist())

try:
    hwc.view(2, 12)
except RuntimeError as e:
    print("RuntimeError:", e)
print(hwc.reshape(2, 12)[0].tolist())

col = torch.tensor([[1], [2], [3]], device=device)
print(col.expand(3, 4).cpu())
print(col.expand(-1, 2).stride())
print(torch.ones(3, 2, device=device).mul(col.expand_as(torch.ones(3, 2))).cpu())
print(col.repeat(2, 3).shape, col.squeeze().repeat(2).tolist())
print(torch.tile(torch.tensor([1, 2], device=device), (2, 2)).cpu())
print(torch.repeat_interleave(torch.tensor([1, 2, 3], device=device), 2).tolist())
print(torch.tensor([[1, 2], [3, 4]], device=device).repeat_interleave(torch.tensor([1, 2], device=device), dim=0).cpu())

row = torch.arange(5, device=device)
print(row.flip(0).tolist(), torch.flip(batch, [1, 2])[0].cpu())
print(torch.roll(row, 2).tolist(), row.roll(-1, 0).tolist())
print(torch.roll(batch[0], shifts=(1, 1), dims=(0, 1)).cpu())
print(torch.fliplr(batch[0]).tolist(), torch.flipud(batch[0])[0].tolist())

print(batch.narrow(2, 1, 2).shape, torch.narrow(batch, 0, 1, 1).shape)
print(batch.select(1, 2).cpu(), torch.select(batch, 2, 0).tolist())

x = torch.zeros(1, 3, 1, 2, 1, device=device)
print(x.squeeze((0, 2)).shape, x.squeeze(-1).shape, torch.squeeze(x, dim=(2, 4)).shape)
print(x.unsqueeze(0).shape, x.squeeze().unsqueeze(-1).shape)
print(torch.arange(8, device=device).unfold(0, 3, 2).cpu())
print(batch.transpose(0, 2).shape, batch.mT.shape, batch.swapaxes(0, 1).shape)
