# nproc: 2
# A tiny language model parallelised as TorchTitan plans one: the token
# embedding RowwiseParallel (vocabulary rows split, lookups all-reduced),
# the feed-forward layers column- then row-parallel, the output head
# ColwiseParallel with its logits gathered back (output_layouts=Replicate),
# PrepareModuleOutput on the block; trained with SGD against the same model
# unparallelised.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.parallel import (ColwiseParallel, PrepareModuleOutput, RowwiseParallel,
                                               parallelize_module)

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(12, 8)
        self.ff = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 8))
        self.out = nn.Linear(8, 12, bias=False)

    def forward(self, idx):
        h = self.tok(idx)
        h = h + self.ff(h)
        return self.out(h)


torch.manual_seed(0)
reference = LM().to(device)
torch.manual_seed(0)
model = LM().to(device)
mesh = init_device_mesh(device, (2,))
model = parallelize_module(model, mesh, {
    "tok": RowwiseParallel(input_layouts=Replicate()),
    "ff.0": ColwiseParallel(),
    "ff.2": RowwiseParallel(),
    "out": ColwiseParallel(output_layouts=Replicate()),
})
parallelize_module(model.ff, mesh, PrepareModuleOutput(output_layouts=(Replicate(),),
                                                        desired_output_layouts=(Replicate(),),
                                                        use_local_output=True))
print(rank, model.tok.weight.placements, tuple(model.tok.weight.to_local().shape),
      model.out.weight.placements, tuple(model.out.weight.to_local().shape))
idx = torch.tensor([[1, 5, 11, 0], [7, 3, 3, 9]], device=device)
target = torch.tensor([[5, 11, 0, 2], [3, 3, 9, 4]], device=device)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
ref_opt = torch.optim.SGD(reference.parameters(), lr=0.5)
for step in range(3):
    logits = model(idx)
    want = reference(idx)
    loss = F.cross_entropy(logits.reshape(-1, 12), target.reshape(-1))
    ref_loss = F.cross_entropy(want.reshape(-1, 12), target.reshape(-1))
    print(rank, step, isinstance(logits, DTensor), tuple(logits.shape), round(loss.item(), 5),
          torch.allclose(logits, want, atol=1e-5))
    opt.zero_grad()
    ref_opt.zero_grad()
    loss.backward()
    ref_loss.backward()
    opt.step()
    ref_opt.step()
print(rank, "embedding agrees", torch.allclose(model.tok.weight.full_tensor(), reference.tok.weight, atol=1e-5),
      "head agrees", torch.allclose(model.out.weight.full_tensor(), reference.out.weight, atol=1e-5))
dist.destroy_process_group()
