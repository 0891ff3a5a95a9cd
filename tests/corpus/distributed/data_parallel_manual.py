# nproc: 4
# Data parallelism by hand: each rank takes every world-th sample of a synthetic dataset,
# and gradients are averaged with a plain all_reduce. The result matches full-batch training.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()

torch.manual_seed(0)
X = torch.randn(32, 3, device=device)
Y = X @ torch.tensor([[2.0], [-1.0], [0.5]], device=device) + 0.3
shard_x, shard_y = X[rank::world], Y[rank::world]
print("shard rows", shard_x.shape[0], "first target", round(shard_y[0].item(), 4))

torch.manual_seed(1)
model = nn.Linear(3, 1).to(device)
reference = nn.Linear(3, 1).to(device)
reference.load_state_dict(model.state_dict())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)

for epoch in range(5):
    opt.zero_grad()
    loss = F.mse_loss(model(shard_x), shard_y)
    loss.backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world
    opt.step()
    # Every rank also trains the same model on the whole dataset, alone.
    ref_opt.zero_grad()
    F.mse_loss(reference(X), Y).backward()
    ref_opt.step()
    total = loss.detach().clone()
    dist.all_reduce(total, op=dist.ReduceOp.AVG)
    if rank == 0:
        print(f"epoch {epoch} mean shard loss {total.item():.4f}")

same = all(torch.allclose(p, q, atol=1e-6) for p, q in zip(model.parameters(), reference.parameters()))
print("matches full-batch training:", same)
if rank == world - 1:
    print("weight", [round(v, 4) for v in model.weight.flatten().tolist()], "bias", round(model.bias.item(), 4))
dist.destroy_process_group()
