# nproc: 2
# What CommDebugMode counts for collectives that are not DTensor's functional
# ones: distribute_tensor's scatter and broadcast, from_local(run_check=True)'s
# metadata all-gathers and broadcast, the program's own c10d calls (a barrier
# is not counted); and run_check's error when the ranks' shapes differ.
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_tensor
from torch.distributed.tensor.debug import CommDebugMode

device = "tpu"
dist.init_process_group()
rank = dist.get_rank()
mesh = init_device_mesh(device, (2,))


def show(name, comm):
    print(name, sorted((str(k), v) for k, v in comm.get_comm_counts().items()), comm.get_total_counts())


with CommDebugMode() as comm:
    a = distribute_tensor(torch.ones(4, 2, device=device), mesh, [Shard(0)])
show("distribute Shard", comm)
with CommDebugMode() as comm:
    b = distribute_tensor(torch.ones(4, 2, device=device), mesh, [Replicate()])
show("distribute Replicate", comm)
with CommDebugMode() as comm:
    h = DTensor.from_local(torch.ones(2, device=device) * (rank + 1), mesh, [Replicate()], run_check=True)
show("from_local run_check", comm)
print("broadcast from rank 0", h.to_local().tolist())
with CommDebugMode() as comm:
    s = DTensor.from_local(torch.ones(2, device=device), mesh, [Shard(0)], run_check=True)
show("from_local Shard run_check", comm)
with CommDebugMode() as comm:
    t = torch.ones(3, device=device)
    dist.all_reduce(t)
    dist.barrier()
    out = [torch.zeros(3, device=device) for _ in range(2)]
    dist.all_gather(out, t)
    dist.reduce_scatter_tensor(torch.zeros(1, device=device), torch.ones(2, device=device))
    dist.all_to_all_single(torch.zeros(2, device=device), torch.ones(2, device=device))
show("c10d calls", comm)
with CommDebugMode() as comm:
    c = (a + 1).redistribute(mesh, [Replicate()])
show("redistribute", comm)
try:
    DTensor.from_local(torch.ones(rank + 1, device=device), mesh, [Shard(0)], run_check=True)
except ValueError as e:
    print("ValueError:", e)
dist.destroy_process_group()
