# nproc: 2
# Tensor parallelism as PyTorch's tutorial writes it: parallelize_module with
# ColwiseParallel then RowwiseParallel on a two-layer MLP, trained with
# AdamW; the parameters' placements and local shapes, the losses, and that
# the parallel model computes what the same model on one device computes.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, parallelize_module

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
world = dist.get_world_size()


class ToyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.in_proj = nn.Linear(10, 32)
        self.relu = nn.ReLU()
        self.out_proj = nn.Linear(32, 5)

    def forward(self, x):
        return self.out_proj(self.relu(self.in_proj(x)))


torch.manual_seed(0)
reference = ToyModel().to(device)
torch.manual_seed(0)
tp_mesh = init_device_mesh(device, (world,))
tp_model = ToyModel().to(device)
plan = {"in_proj": ColwiseParallel(), "out_proj": RowwiseParallel()}
tp_model = parallelize_module(module=tp_model, device_mesh=tp_mesh, parallelize_plan=plan)
for name, p in tp_model.named_parameters():
    print(rank, name, type(p).__name__, p.placements, tuple(p.shape), tuple(p.to_local().shape))

optimizer = torch.optim.AdamW(tp_model.parameters(), lr=0.25, foreach=True)
ref_opt = torch.optim.AdamW(reference.parameters(), lr=0.25, foreach=True)
for i in range(4):
    torch.manual_seed(i)
    inp = torch.rand(20, 10, device=device)
    output = tp_model(inp)
    expected = reference(inp)
    print(rank, "iter", i, isinstance(output, DTensor), tuple(output.shape), round(output.sum().item(), 4),
          torch.allclose(output, expected, atol=1e-5))
    output.sum().backward()
    expected.sum().backward()
    optimizer.step()
    ref_opt.step()
    optimizer.zero_grad()
    ref_opt.zero_grad()
w = tp_model.in_proj.weight.full_tensor()
print(rank, "weights agree", torch.allclose(w, reference.in_proj.weight, atol=1e-5),
      torch.allclose(tp_model.out_proj.bias.full_tensor(), reference.out_proj.bias, atol=1e-5))
print(rank, ColwiseParallel(), RowwiseParallel(output_layouts=Shard(0)))

# Outputs kept as DTensors: the column-parallel layer's output is Shard(-1).
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 4)).to(device)
m = parallelize_module(m, tp_mesh, {"0": ColwiseParallel(use_local_output=False),
                                     "1": RowwiseParallel(use_local_output=False)})
h = m[0](torch.ones(3, 4, device=device))
print(rank, type(h).__name__, h.placements, tuple(h.to_local().shape))
out = m(torch.ones(3, 4, device=device))
print(rank, type(out).__name__, out.placements, [round(v, 4) for v in out.to_local()[0].tolist()])
try:
    parallelize_module(nn.ReLU(), tp_mesh, ColwiseParallel())
except NotImplementedError as e:
    print(rank, "NotImplementedError:", e)
dist.destroy_process_group()
