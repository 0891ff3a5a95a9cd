# The DDP tutorial's demo_checkpoint: rank 0 saves the model to a file, every
# process loads it with map_location after a barrier, trains, and rank 0
# removes the file; launched with torch.multiprocessing.spawn.
import os
import tempfile
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.optim as optim
from torch.nn.parallel import DistributedDataParallel as DDP

device = "tpu"


def setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "12355"
    dist.init_process_group("gloo", rank=rank, world_size=world_size)


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net1 = nn.Linear(10, 10)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(10, 5)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))


def demo_checkpoint(rank, world_size, name):
    setup(rank, world_size)
    torch.manual_seed(42 + rank)  # every process starts from other weights
    model = ToyModel().to(device)
    ddp_model = DDP(model)
    CHECKPOINT_PATH = os.path.join(tempfile.gettempdir(), name)
    if rank == 0:
        # All processes should see same parameters as they all start from same
        # random parameters and gradients are synchronized in backward passes.
        # Therefore, saving it in one process is sufficient.
        torch.save(ddp_model.state_dict(), CHECKPOINT_PATH)

    # Use a barrier() to make sure that process 1 loads the model after process
    # 0 saves it.
    dist.barrier()
    map_location = {"cpu": "cpu"}
    ddp_model.load_state_dict(torch.load(CHECKPOINT_PATH, map_location=map_location, weights_only=True))

    loss_fn = nn.MSELoss()
    optimizer = optim.SGD(ddp_model.parameters(), lr=0.001)

    optimizer.zero_grad()
    torch.manual_seed(rank)
    outputs = ddp_model(torch.randn(20, 10, device=device))
    labels = torch.randn(20, 5, device=device)
    loss = loss_fn(outputs, labels)
    loss.backward()
    optimizer.step()
    same = [torch.zeros(5, device=device) for _ in range(world_size)]
    dist.all_gather(same, model.net2.bias.detach())
    dist.barrier()

    # Not necessary to use a dist.barrier() to guard the file deletion below
    # as the AllReduce ops in the backward pass of DDP already served as
    # a synchronization.
    if rank == 0:
        os.remove(CHECKPOINT_PATH)
        print("loss", round(loss.item(), 5))
        print("net2.bias", model.net2.bias.detach().cpu())
        print("every rank agrees:", all(torch.equal(same[0], s) for s in same))
    dist.destroy_process_group()


if __name__ == "__main__":
    name = "tpu_playground_ddp_checkpoint_%d.pt" % os.getpid()
    mp.spawn(demo_checkpoint, args=(2, name), nprocs=2, join=True)
    print("checkpoint removed:", not os.path.exists(os.path.join(tempfile.gettempdir(), name)))
