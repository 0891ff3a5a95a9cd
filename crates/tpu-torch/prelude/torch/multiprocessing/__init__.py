# torch.multiprocessing: importable, as training scripts import it at the top
# for `mp.spawn`. Starting processes is not supported yet: several TPU
# devices are ranks here, started by `tpu run --nproc-per-node N` (or the
# page's ranks field) the way torchrun starts them, with RANK, LOCAL_RANK and
# WORLD_SIZE in os.environ. Every name of it raises NotImplementedError
# saying so.

_HOW = ("torch.multiprocessing.{} is not supported yet: run the program as ranks instead "
        "(`tpu run --nproc-per-node N`, as torchrun), which set RANK, LOCAL_RANK and WORLD_SIZE")


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    raise NotImplementedError(_HOW.format("spawn"))


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    raise NotImplementedError(_HOW.format("start_processes"))


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError("module 'torch.multiprocessing' has no attribute '" + name + "'")
    raise NotImplementedError(_HOW.format(name))
