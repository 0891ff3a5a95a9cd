# Keeping track of dtypes in a data pipeline: int32 counts, float64 accumulators,
# .to(dtype), promotion with Python scalars, integer division, iinfo and finfo.
import torch

device = "tpu"

counts = torch.tensor([3, 7, 10, 25], dtype=torch.int32, device=device)
totals = torch.tensor([1.5, 2.25, 10.0, 0.125], dtype=torch.float64, device=device)
print(counts.dtype, totals.dtype, counts.element_size(), totals.element_size())

print((counts + 1).dtype, (counts * 2.5).dtype, (counts / 2).dtype, (counts // 2).dtype)
print((counts // 2).tolist(), (counts % 4).tolist(), (-counts // 4).tolist())
print(torch.div(counts, 4, rounding_mode="floor").tolist(), torch.div(-counts, 4, rounding_mode="trunc").tolist())
print((counts + totals).dtype, (totals * 2).dtype, (counts > 5).dtype, (counts + True).dtype)
print((counts.sum()).dtype, counts.sum().item(), counts.float().mean().item())
print(torch.tensor([1, 2]).dtype, torch.tensor([1.0, 2]).dtype, torch.tensor([True]).dtype)
print(torch.result_type(counts, 1.0), torch.promote_types(torch.int32, torch.float32), torch.can_cast(torch.float64, torch.int32))

# Converting.
as_long = counts.to(torch.int64)
as_half = totals.to(dtype=torch.float32)
print(as_long.dtype, as_half.dtype, counts.long().dtype, counts.double().dtype, totals.int().tolist())
print(totals.to(counts).dtype, counts.type(torch.float64).dtype, counts.type())
print(torch.tensor([-2.7, 2.7]).to(torch.int32).tolist(), torch.tensor([0.0, 0.3]).bool().tolist())
print(counts.to(torch.float64).div(3).tolist())

# Large integers stay exact in int64 and float64.
big = torch.tensor([2 ** 40, 2 ** 40 + 1], device=device)
print(big.tolist(), (big * 3).tolist(), (big.double() + 1).tolist())
print(torch.tensor([2 ** 31 - 1], dtype=torch.int32).tolist())

# Type limits.
print(torch.iinfo(torch.int32).max, torch.iinfo(torch.int32).min, torch.iinfo(torch.int64).max)
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps, torch.finfo(torch.float32).max)
print(torch.finfo(torch.float32).tiny, torch.finfo(torch.bfloat16).eps, torch.finfo().bits, torch.iinfo(torch.int32).bits)
print(torch.finfo(torch.float32))
print(torch.iinfo(torch.int32))

# Clamping a float64 accumulator into an int32 range before casting.
acc = torch.tensor([1e12, -5.5, 42.9], dtype=torch.float64, device=device)
info = torch.iinfo(torch.int32)
print(acc.clamp(info.min, info.max).to(torch.int32).tolist())
print(torch.zeros(2, dtype=torch.int32, device=device).dtype, torch.arange(3, dtype=torch.float64).dtype)
print(torch.get_default_dtype(), counts.is_floating_point(), totals.is_floating_point())
