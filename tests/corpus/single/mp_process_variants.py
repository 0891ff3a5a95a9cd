# multiprocessing.Process as torch.multiprocessing re-exports it: targets with
# args and kwargs, a subclass overriding run(), exit codes, a process that
# raises (its traceback goes to stderr, its exitcode is 1), names and the
# start method, and processes meeting in torch.distributed collectives.
import os
import sys
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

device = "tpu"


def quiet(rank, scale, offset=0.0):
    dist.init_process_group("gloo", rank=rank, world_size=3)
    t = torch.arange(4, dtype=torch.float32, device=device) * scale + offset + rank
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    gathered = [torch.zeros(4, device=device) for _ in range(3)]
    dist.all_gather(gathered, t)
    if rank == 2:
        print("max", t.tolist())
        print("gathered", [g.sum().item() for g in gathered])
    dist.destroy_process_group()


class Worker(mp.Process):
    def __init__(self, rank, code):
        super().__init__()
        self.rank = rank
        self.code = code

    def run(self):
        dist.init_process_group("gloo", rank=self.rank, world_size=2)
        t = torch.full((2,), float(self.rank + 1), device=device)
        dist.broadcast(t, src=1)
        if self.rank == 0:
            print("broadcast from 1:", t.tolist())
        dist.destroy_process_group()
        if self.code:
            sys.exit(self.code)


def boom():
    raise KeyError("missing")


if __name__ == "__main__":
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29503"
    mp.set_start_method("spawn")
    try:
        mp.set_start_method("spawn")
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(mp.get_start_method(), sorted(mp.get_all_start_methods()))
    p = mp.Process(target=quiet, args=(0, 2.0))
    print(p.name.startswith("Process-"), p.exitcode, p.is_alive())
    procs = [p] + [mp.Process(target=quiet, args=(r, 2.0), kwargs={"offset": 0.5}) for r in (1, 2)]
    for q in procs:
        q.start()
    for q in procs:
        q.join()
    print("exitcodes", [q.exitcode for q in procs])
    workers = [Worker(0, 0), Worker(1, 7)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print("worker exitcodes", [w.exitcode for w in workers], type(workers[0]).__name__)
    ctx = mp.get_context("spawn")
    b = ctx.Process(target=boom, name="the-boom")
    b.start()
    b.join()
    print(b.name, b.exitcode)
    try:
        b.start()
    except AssertionError as e:
        print("AssertionError:", e)
