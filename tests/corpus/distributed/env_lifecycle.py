# nproc: 4
# What torchrun puts in the environment, and the process group's life cycle.
import os
import torch
import torch.distributed as dist

device = "tpu"
print("is_available:", dist.is_available(), "is_initialized before init:", dist.is_initialized())
for key in ["RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "ROLE_RANK"]:
    print(key, "=", os.environ[key])
print("MASTER_ADDR" in os.environ, "MASTER_PORT" in os.environ, os.environ["MASTER_PORT"].isdigit())

try:
    dist.get_rank()
except ValueError as e:
    print("get_rank before init:", type(e).__name__, e)
try:
    dist.get_world_size()
except ValueError as e:
    print("get_world_size before init:", type(e).__name__, e)

dist.init_process_group()
rank = dist.get_rank()
print("is_initialized after init:", dist.is_initialized(), "backend:", dist.get_backend())
print("rank matches env:", rank == int(os.environ["RANK"]),
      "world matches env:", dist.get_world_size() == int(os.environ["WORLD_SIZE"]))
try:
    dist.init_process_group("gloo")
except ValueError as e:
    print("init twice:", type(e).__name__, e)

t = torch.tensor([int(os.environ["LOCAL_RANK"])], device=device)
dist.all_reduce(t)
print("sum of local ranks", t.item())
dist.barrier()
dist.destroy_process_group()
print("is_initialized after destroy:", dist.is_initialized())
try:
    dist.all_reduce(torch.ones(1, device=device))
except ValueError as e:
    print("all_reduce after destroy:", e)

