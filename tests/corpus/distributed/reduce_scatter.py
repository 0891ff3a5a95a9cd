# nproc: 2
# reduce_scatter_tensor: every rank contributes a full tensor and keeps its reduced shard.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

full = torch.arange(world * 3, dtype=torch.float32, device=device) * (rank + 1)
shard = torch.empty(3, device=device)
dist.reduce_scatter_tensor(shard, full)
print("sum shard", shard.tolist())

for name, op in [("MAX", dist.ReduceOp.MAX), ("MIN", dist.ReduceOp.MIN), ("AVG", dist.ReduceOp.AVG)]:
    full = torch.tensor([1.0, -2.0, 4.0, 8.0], device=device) * (rank + 0.5)
    shard = torch.empty(2, device=device)
    dist.reduce_scatter_tensor(shard, full, op=op)
    print(name, "shard", shard.tolist())

# 2-D input: the shards are consecutive row blocks.
torch.manual_seed(rank)
grads = torch.randn(world * 2, 3, device=device)
mine = torch.empty(2, 3, device=device)
dist.reduce_scatter_tensor(mine, grads)
every = torch.empty(world * 2, 3, device=device)
dist.all_gather_into_tensor(every, mine)
total = grads.clone()
dist.all_reduce(total)
print("row block", [round(v, 4) for v in mine[0].tolist()])
print("all_gather of shards equals all_reduce:", torch.allclose(every, total))

# int64 works too.
counts = torch.tensor([1, 2, 3, 4], device=device) * (rank + 1)
mine = torch.empty(2, dtype=torch.int64, device=device)
dist.reduce_scatter_tensor(mine, counts)
print("int64 shard", mine.tolist())

# The list form: one input tensor per destination rank.
inputs = [torch.full((2,), 10.0 * r + rank, device=device) for r in range(world)]
out = torch.empty(2, device=device)
dist.reduce_scatter(out, inputs)
print("list form", out.tolist())
dist.destroy_process_group()
