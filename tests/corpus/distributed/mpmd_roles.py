# nproc: 8
# Ranks with different roles (MPMD): ranks 1-7 train in their own group and average
# gradients there; rank 0 never trains, it evaluates the weights rank 1 broadcasts to all.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()
trainers = dist.new_group(list(range(1, world)))
true_w = torch.tensor([0.5, -1.5, 2.0], device=device)

w = torch.zeros(3, device=device)
if rank == 0:
    torch.manual_seed(999)
    x_eval = torch.randn(16, 3, device=device)
    y_eval = x_eval @ true_w
else:
    torch.manual_seed(rank)
    x = torch.randn(12, 3, device=device)
    y = x @ true_w + 0.01 * torch.randn(12, device=device)
    print(f"trainer {dist.get_rank(trainers)} of {dist.get_world_size(trainers)} has {x.shape[0]} samples")

for rnd in range(3):
    if rank != 0:
        for _ in range(5):
            grad = 2 * x.t() @ (x @ w - y) / x.shape[0]
            dist.all_reduce(grad, group=trainers)
            w -= 0.1 * grad / dist.get_world_size(trainers)
        if rank == 5 and rnd == 1:
            print("trainer-side check: local loss", round(((x @ w - y) ** 2).mean().item(), 4))
    dist.broadcast(w, src=1)
    if rank == 0:
        err = ((x_eval @ w - y_eval) ** 2).mean().item()
        print(f"round {rnd}: eval loss {err:.4f}, weights {[round(v, 3) for v in w.tolist()]}")

done = torch.tensor([rank], device=device)
dist.all_reduce(done, op=dist.ReduceOp.MAX)
if rank == 0 or rank == world - 1:
    print("all", done.item() + 1, "ranks reached the end")
dist.destroy_process_group()
