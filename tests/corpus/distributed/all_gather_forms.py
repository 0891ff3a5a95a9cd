# nproc: 4
# all_gather into a list, and all_gather_into_tensor into a concatenated 1-D or 2-D output.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

# List form: one output tensor per rank, each the shape of the input.
mine = torch.tensor([rank, rank * rank], device=device)
parts = [torch.zeros(2, dtype=torch.int64, device=device) for _ in range(world)]
dist.all_gather(parts, mine)
print("list of int64:", [p.tolist() for p in parts])

rows = torch.full((2, 3), rank + 0.25, device=device)
blocks = [torch.empty(2, 3, device=device) for _ in range(world)]
dist.all_gather(blocks, rows)
stacked = torch.stack(blocks)
print("stacked shape", tuple(stacked.shape), "corner values", stacked[:, 0, 0].tolist())
print("cat along dim 1", torch.cat(blocks, dim=1)[0].tolist())

# Into one tensor: the output is world times longer in dim 0 than the input.
flat = torch.empty(world * 3, device=device)
dist.all_gather_into_tensor(flat, torch.arange(3, dtype=torch.float32, device=device) + 10 * rank)
print("1-D concatenated:", flat.tolist())

out2d = torch.empty(world * 2, 3, device=device)
dist.all_gather_into_tensor(out2d, rows)
print("2-D concatenated shape", tuple(out2d.shape), "column 0", out2d[:, 0].tolist())

# A (world, n) output is taken as a stack of the (n,)-shaped inputs? Gloo says no.
try:
    dist.all_gather_into_tensor(torch.empty(world, 3, device=device), torch.ones(3, device=device))
    print("stacked output accepted")
except RuntimeError as e:
    print("stacked output:", e)

# The usual workaround: gather flat and view it as rows.
rowsum = torch.tensor([float(rank), rank + 0.5], device=device)
flat = torch.empty(world * 2, device=device)
dist.all_gather_into_tensor(flat, rowsum)
print("viewed as rows:", flat.view(world, 2).tolist())

ints = torch.empty(world, dtype=torch.int32, device=device)
dist.all_gather_into_tensor(ints, torch.tensor([7 * rank], dtype=torch.int32, device=device))
print("int32:", ints.tolist(), ints.dtype)
dist.destroy_process_group()
