# dtypes float32, bfloat16, int64, bool: casts with .to/.float/.long/.bool and promotion results.
import torch

device = "tpu"

f = torch.tensor([1.7, -2.3, 0.0, 3.5], device=device)
print(f.dtype, f.long().cpu(), f.long().dtype)
print(f.bool().cpu(), f.to(torch.int64).cpu(), f.to(torch.bool).dtype)
print(f.to(torch.bfloat16).cpu(), f.to(torch.bfloat16).dtype)
print(f.to(torch.bfloat16).float().cpu())
i = torch.tensor([3, 0, -2], device=device)
print(i.dtype, i.float().cpu(), i.bool().cpu(), i.to(torch.float32).dtype)
b = torch.tensor([True, False, True], device=device)
print(b.long().cpu(), b.float().cpu(), b.to(torch.int64).sum().item())
h = torch.tensor([0.1, 1.0 / 3.0, 256.5], dtype=torch.bfloat16, device=device)
print(h.cpu(), h.float().tolist())
print((i + f[:3]).dtype, (i * 2).dtype, (i / 2).dtype, (b + b).dtype, (b & b).dtype)
print((b + i).dtype, (b * 1.0).dtype, (h + f[:3]).dtype, (h * 2).dtype, (h + i).dtype)
print((i + 1.5).dtype, (f + 1).dtype, (i > 0).dtype, (f == f).dtype)
print(torch.tensor(2, device=device).dtype, torch.tensor(2.0, device=device).dtype, torch.tensor(True).dtype)
print(torch.zeros(2, dtype=torch.bfloat16, device=device).dtype, torch.ones(2, device=device).long().dtype)
print(f.to(device).dtype, f.to("cpu").dtype, f.to(dtype=torch.int64).cpu())
print(f.to(torch.float32).dtype, f.bfloat16().dtype, f.bfloat16().long().cpu())
print(torch.tensor([1, 2, 3]).float() / 2, torch.tensor([0.5, 1.5]).long())
print(torch.tensor([[1.0, 2.0]], dtype=torch.bfloat16) @ torch.tensor([[3.0], [4.0]], dtype=torch.bfloat16))
