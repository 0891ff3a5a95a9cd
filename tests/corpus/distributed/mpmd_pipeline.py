# nproc: 2
# Two pipeline stages on two ranks (MPMD): rank 0 runs the first layers and sends the
# activations; rank 1 runs the head, computes the loss and sends the gradient back.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist

device = "tpu"
dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
x = torch.randn(8, 4, device=device)
labels = torch.randint(0, 3, (8,), device=device)
torch.manual_seed(1 + rank)

if rank == 0:
    stage = nn.Sequential(nn.Linear(4, 6), nn.ReLU()).to(device)
    opt = torch.optim.SGD(stage.parameters(), lr=0.2)
    for step in range(4):
        opt.zero_grad()
        act = stage(x)
        dist.send(act.detach(), dst=1)
        grad = torch.empty_like(act)
        dist.recv(grad, src=1)
        act.backward(grad)
        opt.step()
        print(f"stage 0 step {step}: grad norm {grad.norm().item():.4f}")
    print("stage 0 first weight row", [round(v, 4) for v in stage[0].weight[0].tolist()])
else:
    head = nn.Linear(6, 3).to(device)
    opt = torch.optim.SGD(head.parameters(), lr=0.2)
    losses = []
    for step in range(4):
        opt.zero_grad()
        act = torch.empty(8, 6, device=device)
        dist.recv(act, src=0)
        act.requires_grad_(True)
        loss = F.cross_entropy(head(act), labels)
        loss.backward()
        dist.send(act.grad, dst=0)
        opt.step()
        losses.append(round(loss.item(), 4))
    print("stage 1 losses", losses)
    print("stage 1 predictions", head(act).argmax(dim=1).tolist())
dist.barrier()
print("rank", rank, "finished")
dist.destroy_process_group()
