# nproc: 3
# all_to_all_single with uneven splits, as mixture-of-experts token routing
# uses it: each rank sends a different number of rows to each other rank,
# the counts exchanged first with an even all_to_all, and the rows sent back.
# (gloo's list all_to_all takes even sizes only; the list form here is even.)
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
send_counts = torch.tensor([(rank + j) % 3 + 1 for j in range(world)], device=device)
recv_counts = torch.empty(world, dtype=torch.int64, device=device)
dist.all_to_all_single(recv_counts, send_counts)
send, recv = send_counts.tolist(), recv_counts.tolist()
print(rank, "sends", send, "receives", recv)
tokens = torch.arange(sum(send) * 2, dtype=torch.float32, device=device).reshape(-1, 2) + 100 * rank
routed = torch.empty(sum(recv), 2, device=device)
dist.all_to_all_single(routed, tokens, recv, send)
print(rank, routed.cpu().tolist())
outs = [torch.empty(2, 2, device=device) for _ in range(world)]
dist.all_to_all(outs, list(torch.full((world * 2, 2), float(rank), device=device).split(2)))
print(rank, [o[0, 0].item() for o in outs])
back = torch.empty_like(tokens)
dist.all_to_all_single(back, routed, send, recv)
print(rank, torch.equal(back.cpu(), tokens.cpu()))
dist.destroy_process_group()
