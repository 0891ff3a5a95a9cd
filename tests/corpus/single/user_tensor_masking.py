# Filtering sensor readings with boolean masks: masked_select, nonzero with
# as_tuple, where with scalars, clamp_min, masked_fill_ and counting.
import torch

device = "tpu"

readings = torch.tensor([[1.5, -2.0, 0.0, 7.25],
                         [3.0, 9.5, -0.5, 2.0],
                         [-4.0, 0.25, 6.0, -1.0]], device=device)

valid = readings > 0
print(valid.cpu())
print("valid count:", valid.sum().item(), valid.sum(dim=1).tolist())
print(torch.masked_select(readings, valid).cpu())
print(readings.masked_select(readings < -1).tolist())

rows, cols = torch.nonzero(valid, as_tuple=True)
print(rows.tolist(), cols.tolist())
print(torch.nonzero(readings == 0).cpu())
print(valid.nonzero().shape, torch.count_nonzero(readings).item())
print(torch.count_nonzero(readings, dim=0).tolist())

# where with scalars on either side.
print(torch.where(valid, readings, 0.0).cpu())
print(torch.where(readings > 5, 1, 0).cpu())
print(torch.where(valid, 1.0, -1.0).dtype)

# Clamping.
print(torch.clamp_min(readings, 0.0).cpu())
print(readings.clamp_max(2.0).cpu())
print(readings.clamp(min=-1.0, max=1.0).tolist())

# Masking in place, and with a row mask that broadcasts.
cleaned = readings.clone()
cleaned.masked_fill_(cleaned < 0, float("nan"))
print(cleaned.cpu())
print("nan count:", torch.isnan(cleaned).sum().item())
row_mask = torch.tensor([True, False, True], device=device).unsqueeze(1)
print(readings.masked_fill(row_mask, 0.0).cpu())

# any/all and the first position above a threshold per row.
above = readings > 2.0
print(above.any(dim=1).tolist(), above.all().item())
print(above.int().argmax(dim=1).tolist())
print(readings[valid.any(1)].shape, torch.any(readings < -3).item())
