# nproc: 8
# Point to point: a token passed around a ring with send/recv, then the same ring with
# isend/irecv whose works are waited on, then a gather to rank 0 by hand.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
nxt, prv = (rank + 1) % world, (rank - 1) % world

# Blocking ring: rank 0 starts the token, everyone else adds its rank and passes it on.
token = torch.zeros(1, dtype=torch.int64, device=device)
if rank == 0:
    dist.send(token + 1, dst=nxt)
    dist.recv(token, src=prv)
    print("token came back as", token.item())
else:
    dist.recv(token, src=prv)
    print("got token", token.item(), "from", prv)
    dist.send(token * 2 + rank, dst=nxt)

# Non-blocking ring: post both, then wait; the received tensor is valid after wait().
out = torch.full((2,), float(rank), device=device)
inbox = torch.empty(2, device=device)
reqs = [dist.isend(out, dst=nxt), dist.irecv(inbox, src=prv)]
results = [req.wait() for req in reqs]
print("isend/irecv waits", results, "inbox", inbox.tolist())

# recv without src takes whoever sends and returns the sender's rank; only one rank
# sends here, and the barrier keeps later messages from being taken by it.
if rank == 0:
    t = torch.empty(3, device=device)
    sender = dist.recv(t)
    print("message from", sender, t.tolist())
elif rank == world - 1:
    dist.send(torch.full((3,), rank * 1.5, device=device), dst=0)
dist.barrier()

# Explicit source: rank 0 collects squares in rank order.
if rank == 0:
    got = []
    for src in range(1, world):
        t = torch.empty(1, device=device)
        dist.recv(t, src=src)
        got.append(t.item())
    print("squares", got)
else:
    dist.send(torch.tensor([float(rank * rank)], device=device), dst=0)
dist.barrier()
dist.destroy_process_group()
