# "Writing Distributed Applications with PyTorch": ranks started with mp.Process.
import os
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

device = "tpu"


def run(rank, size):
    """Blocking point-to-point communication, then an all-reduce."""
    tensor = torch.zeros(1, device=device)
    if rank == 0:
        tensor += 1
        dist.send(tensor=tensor, dst=1)
    else:
        dist.recv(tensor=tensor, src=0)
    group = dist.new_group([0, 1])
    t = torch.ones(1, device=device) * (rank + 1)
    dist.all_reduce(t, op=dist.ReduceOp.SUM, group=group)
    if rank == 1:
        print("Rank ", rank, " has data ", tensor[0].item(), " and sum ", t[0].item())


def init_process(rank, size, fn, backend="gloo"):
    """Initialize the distributed environment."""
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29501"
    dist.init_process_group(backend, rank=rank, world_size=size)
    fn(rank, size)
    dist.destroy_process_group()


if __name__ == "__main__":
    world_size = 2
    processes = []
    mp.set_start_method("spawn")
    for rank in range(world_size):
        p = mp.Process(target=init_process, args=(rank, world_size, run))
        p.start()
        processes.append(p)

    for p in processes:
        p.join()
    print("exit codes", [p.exitcode for p in processes])
    print(processes[0].name, processes[1].name, processes[0].is_alive())
