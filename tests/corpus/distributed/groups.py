# nproc: 8
# new_group: collectives inside subsets of ranks; ranks outside a group skip its calls.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

# Every rank must call new_group for every group, members or not, in the same order.
evens = dist.new_group([r for r in range(world) if r % 2 == 0])
odds = dist.new_group([r for r in range(world) if r % 2 == 1])
tail = dist.new_group([5, 6, 7])
mine = evens if rank % 2 == 0 else odds

print("in my parity group: rank", dist.get_rank(mine), "of", dist.get_world_size(mine),
      "ranks", dist.get_process_group_ranks(mine))
print("tail group rank", dist.get_rank(tail), "size", dist.get_world_size(tail))

t = torch.tensor([float(rank)], device=device)
dist.all_reduce(t, group=mine)
print("sum over my parity group", t.item())

# broadcast's src is a global rank; here rank 3 is the source inside the odd group.
b = torch.full((2,), rank * 1.0, device=device)
dist.broadcast(b, src=0 if rank % 2 == 0 else 3, group=mine)
print("broadcast in group", b.tolist())

if rank in (5, 6, 7):
    parts = [torch.empty(1, dtype=torch.int64, device=device) for _ in range(3)]
    dist.all_gather(parts, torch.tensor([rank * 100], device=device), group=tail)
    print("tail all_gather", [p.item() for p in parts])
    print("group rank of global 7:", dist.get_group_rank(tail, 7),
          "global rank of group 0:", dist.get_global_rank(tail, 0))
    dist.barrier(group=tail)
else:
    print("not in the tail group: skipped")

# The world group is still there and spans everyone.
total = torch.tensor([1], device=device)
dist.all_reduce(total, group=dist.group.WORLD)
print("world size by all_reduce", total.item(), "ranks", dist.get_process_group_ranks(dist.group.WORLD))

# A group of one rank: its collectives complete locally.
solo = dist.new_group([2])
if rank == 2:
    s = torch.tensor([3.5], device=device)
    dist.all_reduce(s, group=solo)
    print("solo group all_reduce", s.item(), dist.get_world_size(solo))
dist.destroy_process_group()
