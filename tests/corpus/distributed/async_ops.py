# nproc: 2
# async_op=True: collectives return a Work; wait() returns True and the result is then in place.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

a = torch.tensor([1.0, 2.0], device=device) * (rank + 1)
b = torch.tensor([rank * 3], device=device)
parts = [torch.empty(1, dtype=torch.int64, device=device) for _ in range(world)]
works = [
    dist.all_reduce(a, async_op=True),
    dist.all_reduce(b, op=dist.ReduceOp.MAX, async_op=True),
    dist.all_gather(parts, torch.tensor([rank + 40], device=device), async_op=True),
]
print("types", [type(w).__name__ for w in works])
# Wait in reverse order: each wait returns True whatever the order.
print("waits", [w.wait() for w in reversed(works)])
print("completed", [w.is_completed() for w in works])
print("a", a.tolist(), "b", b.tolist(), "parts", [p.item() for p in parts])

# A synchronous call returns None.
print("sync returns", dist.all_reduce(torch.ones(1, device=device)))

# Overlap: start the reduction of one gradient-like tensor, compute, then wait.
torch.manual_seed(rank)
g = torch.randn(5, device=device)
work = dist.all_reduce(g, async_op=True)
local = (torch.arange(5, dtype=torch.float32, device=device) ** 2).sum()
work.wait()
g /= world
print("local", local.item(), "mean grad", [round(v, 4) for v in g.tolist()])

# barrier can be async too.
work = dist.barrier(async_op=True)
print("barrier work waited:", work.wait())

# isend/irecv both directions at once, then wait on both.
mine = torch.tensor([10.0 + rank], device=device)
theirs = torch.empty(1, device=device)
other = 1 - rank
reqs = [dist.irecv(theirs, src=other), dist.isend(mine, dst=other)]
for r in reqs:
    r.wait()
print("exchanged", theirs.item())
dist.destroy_process_group()
