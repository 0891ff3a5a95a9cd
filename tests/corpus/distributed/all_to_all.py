# nproc: 4
# all_to_all_single, evenly and with split sizes, and the list form all_to_all.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

# Even: element j of the input goes to rank j; the output holds one element from each rank.
send = torch.arange(world, dtype=torch.float32, device=device) + 100 * rank
recv = torch.empty(world, device=device)
dist.all_to_all_single(recv, send)
print("even:", recv.tolist())

# Two rows per destination on a 2-D tensor (split along dim 0).
send = torch.arange(world * 2 * 3, device=device).view(world * 2, 3) + 1000 * rank
recv = torch.empty(world * 2, 3, dtype=torch.int64, device=device)
dist.all_to_all_single(recv, send)
print("rows from each rank:", recv[:, 0].tolist())

# Uneven: every rank sends j+1 elements to rank j,
# so rank r receives r+1 elements from every rank.
in_splits = [j + 1 for j in range(world)]
out_splits = [rank + 1] * world
send = torch.arange(sum(in_splits), dtype=torch.float32, device=device) + 10 * rank
recv = torch.empty(sum(out_splits), device=device)
dist.all_to_all_single(recv, send, output_split_sizes=out_splits, input_split_sizes=in_splits)
print("split sizes", in_splits, "->", out_splits, ":", recv.tolist())

# The list form: a list of tensors to send and a list to receive into.
outs = [torch.empty(2, dtype=torch.int64, device=device) for _ in range(world)]
ins = [torch.tensor([rank, j], device=device) for j in range(world)]
dist.all_to_all(outs, ins)
print("list form:", [o.tolist() for o in outs])

# Sizes that do not divide across the ranks are an error, raised before any communication.
try:
    dist.all_to_all_single(torch.empty(world + 1, device=device), torch.ones(world + 1, device=device))
except RuntimeError as e:
    print("uneven without splits:", e)
try:
    dist.all_to_all_single(torch.empty(world, device=device), torch.ones(world, device=device),
                           output_split_sizes=[1] * (world - 1), input_split_sizes=[1] * world)
except RuntimeError as e:
    print("wrong number of splits:", e)
dist.barrier()
print("done")
dist.destroy_process_group()
