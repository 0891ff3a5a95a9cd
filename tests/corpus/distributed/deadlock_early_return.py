# nproc: 8
# Deadlock: rank 6 leaves its training loop early (a per-rank stopping rule), so the
# other seven wait in the next all_reduce for a rank that has finished the program.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
torch.manual_seed(rank)
w = torch.zeros(2, device=device)


def train():
    for step in range(4):
        grad = torch.randn(2, device=device)
        if rank == 6 and step == 2:
            print("rank 6 thinks it has converged at step", step)
            return step
        dist.all_reduce(grad)
        w.sub_(0.1 * grad / world)
    return 4


steps = train()
print("rank", rank, "trained", steps, "steps")
