# nproc: 4
# Mistakes users make that real PyTorch reports at once, on every rank, without hanging.
# Each is caught and printed; the process group keeps working afterwards.
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

device = "tpu"


def attempt(what, fn):
    try:
        fn()
        print(what, "-> no error")
    except Exception as e:
        print(what, "->", type(e).__name__ + ":", str(e).split("Check failed: ")[-1].strip())


attempt("get_rank before init", lambda: dist.get_rank())
attempt("barrier before init", lambda: dist.barrier())
attempt("unknown backend", lambda: dist.init_process_group("foo"))
attempt("nccl without CUDA", lambda: dist.init_process_group("nccl"))
print("initialized after failed inits:", dist.is_initialized())
dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()
print("backend", dist.get_backend())
attempt("init twice", lambda: dist.init_process_group("gloo"))

x = torch.ones(2, device=device)
attempt("broadcast src == world", lambda: dist.broadcast(x, src=world))
attempt("all_gather_into_tensor output too long",
        lambda: dist.all_gather_into_tensor(torch.empty(world * 2 + 1, device=device), x))
attempt("all_gather_into_tensor output too short",
        lambda: dist.all_gather_into_tensor(torch.empty(world, device=device), x))
attempt("all_gather list too short",
        lambda: dist.all_gather([torch.empty(2, device=device) for _ in range(world - 1)], x))
attempt("all_gather list of int64 for float32",
        lambda: dist.all_gather([torch.empty(2, dtype=torch.int64, device=device) for _ in range(world)], x))
attempt("reduce_scatter_tensor output too big",
        lambda: dist.reduce_scatter_tensor(torch.empty(3, device=device), torch.ones(world * 2, device=device)))
attempt("AVG of int64", lambda: dist.all_reduce(torch.ones(2, dtype=torch.int64, device=device), op=dist.ReduceOp.AVG))
attempt("BOR of float32", lambda: dist.all_reduce(x, op=dist.ReduceOp.BOR))
attempt("send to self", lambda: dist.send(x, dst=rank))
attempt("all_reduce of a list", lambda: dist.all_reduce([x]))
attempt("new_group with rank out of range", lambda: dist.new_group([0, world]))
attempt("new_group with a repeated rank", lambda: dist.new_group([1, 1]))
attempt("DDP of a module without parameters", lambda: DDP(nn.ReLU().to(device)))

t = torch.tensor([float(rank)], device=device)
dist.all_reduce(t)
print("still works: sum of ranks", t.item(), "x untouched", x.tolist())
dist.destroy_process_group()
attempt("destroy twice", lambda: dist.destroy_process_group())
