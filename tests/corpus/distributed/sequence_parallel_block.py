# nproc: 2
# Sequence parallelism around a tensor-parallel MLP, as PyTorch's
# sequence-parallel example and TorchTitan plan a block: a LayerNorm under
# SequenceParallel, PrepareModuleInput turning the sequence shards into a
# replicated input, ColwiseParallel with Replicate input, RowwiseParallel
# reduce-scattering back to sequence shards; wildcard paths in the plan;
# the old torch.distributed._tensor import path.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed._tensor import Replicate, Shard
from torch.distributed.tensor.parallel import (ColwiseParallel, PrepareModuleInput, RowwiseParallel,
                                               SequenceParallel, parallelize_module)

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()


class MLP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.up = nn.Linear(dim, 4 * dim)
        self.down = nn.Linear(4 * dim, dim)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = MLP(dim)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Model(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.layers = nn.ModuleList([Block(dim) for _ in range(depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


torch.manual_seed(0)
reference = Model(8, 2).to(device)
torch.manual_seed(0)
model = Model(8, 2).to(device)
mesh = init_device_mesh(device, (world,))
plan = {
    "layers.*.norm": SequenceParallel(),
    "layers.*.mlp": PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),)),
    "layers.*.mlp.up": ColwiseParallel(),
    "layers.*.mlp.down": RowwiseParallel(output_layouts=Shard(1), use_local_output=False),
}
model = parallelize_module(model, mesh, plan)
for name, p in model.named_parameters():
    if name.startswith("layers.0"):
        print(rank, name, p.placements, tuple(p.to_local().shape))

torch.manual_seed(1)
x = torch.randn(2, 6, 8, device=device)
local = x.chunk(world, dim=1)[rank]
from torch.distributed.tensor import DTensor
sharded = DTensor.from_local(local, mesh, [Shard(1)], run_check=False)
out = model(sharded)
want = reference(x)
print(rank, type(out).__name__, out.placements, tuple(out.to_local().shape))
print(rank, "matches", torch.allclose(out.full_tensor(), want, atol=1e-5), round(out.full_tensor().sum().item(), 4))
out.full_tensor().pow(2).sum().backward()
want.pow(2).sum().backward()
g = model.layers[0].mlp.up.weight.grad
print(rank, "grad", g.placements, torch.allclose(g.full_tensor(), reference.layers[0].mlp.up.weight.grad, atol=1e-4))
# The norm's weight is replicated and its gradient whole on every rank; its
# placement is not printed: PyTorch leaves it Partial(sum) until used, this
# project sums it in backward (tests/corpus/distributed/DTENSOR_NOTES.md).
gn = model.layers[1].norm.weight.grad
print(rank, "norm grad", [round(v, 4) for v in gn.full_tensor().tolist()[:4]])
print(rank, SequenceParallel())
dist.destroy_process_group()
