# torch.multiprocessing.spawn's failures: a process that raises (the parent's
# ProcessRaisedException carries its traceback), the env:// rendezvous without
# MASTER_ADDR, join=False and ProcessContext.join, and a process that exits
# with a status (ProcessExitedException).
import os
import sys
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

device = "tpu"


def work(rank, world_size):
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    x = torch.ones(2, 3, device=device) * (rank + 1)
    dist.all_reduce(x)
    if rank == 0:
        print("sum", x.sum().item())
    dist.barrier()
    if rank == 1:
        y = x @ x  # shapes do not multiply
    dist.destroy_process_group()


def leave(rank, code):
    if rank == 1:
        sys.exit(code)


if __name__ == "__main__":
    try:
        mp.spawn(work, args=(2,), nprocs=2)
    except mp.ProcessRaisedException as e:
        # Both processes fail: which one the parent names is a race.
        print(type(e).__name__)
        print(str(e).splitlines()[-1])
    os.environ["MASTER_ADDR"] = "localhost"
    os.environ["MASTER_PORT"] = "29512"
    try:
        mp.spawn(work, args=(2,), nprocs=2)
    except mp.ProcessRaisedException as e:
        lines = str(e).splitlines()
        print(type(e).__module__, type(e).__name__, e.error_index)
        print(repr(lines[0]), lines[1])
        print(lines[2])
        print(lines[-1])
    ctx = mp.spawn(work, args=(2,), nprocs=2, join=False)
    try:
        while not ctx.join():
            pass
    except Exception as e:
        print("join:", type(e).__name__, len(ctx.pids()))
    try:
        mp.spawn(leave, args=(3,), nprocs=2)
    except mp.ProcessExitedException as e:
        print(type(e).__name__, e.error_index, e.exit_code, str(e))
    mp.spawn(leave, args=(0,), nprocs=2)
    print("exit 0 is success")
