# nproc: 8
# broadcast from every rank in turn, with tensors of several dtypes and shapes.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

seen = []
for src in range(world):
    t = torch.tensor([float(rank), rank * 10.0], device=device)
    dist.broadcast(t, src=src)
    seen.append(t.tolist())
print("from each source:", seen)

# Integer and bool tensors keep their dtype through a broadcast.
ids = torch.arange(4, device=device) * (rank + 1)
dist.broadcast(ids, src=3)
flags = torch.tensor([rank % 2 == 1, rank > 5], device=device)
dist.broadcast(flags, src=7)
print("int64 from 3:", ids.tolist(), ids.dtype, "bool from 7:", flags.tolist())

# A 3-D float64 tensor made from a seeded generator on the source only.
if rank == 5:
    torch.manual_seed(5)
    block = torch.randn(2, 2, 3, dtype=torch.float64, device=device)
else:
    block = torch.zeros(2, 2, 3, dtype=torch.float64, device=device)
dist.broadcast(block, src=5)
print("block sum", round(block.sum().item(), 6), "shape", tuple(block.shape))

# async_op=True gives back a work object; the data is there once wait() returns.
t = torch.full((3,), float(rank), device=device)
work = dist.broadcast(t, src=world - 1, async_op=True)
print("wait returned", work.wait(), "value", t.tolist())

# Broadcasting a parameter-like tensor so every replica starts equal.
torch.manual_seed(100 + rank)
w = torch.randn(4, device=device)
before = round(w.sum().item(), 4)
dist.broadcast(w, src=0)
same = torch.tensor([w.sum().item()], device=device)
dist.all_reduce(same, op=dist.ReduceOp.MAX)
print("changed:", before != round(w.sum().item(), 4), "all equal:", same.item() == w.sum().item())
dist.destroy_process_group()
