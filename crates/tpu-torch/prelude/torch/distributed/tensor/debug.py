# torch.distributed.tensor.debug: CommDebugMode counts the collectives run
# inside its block as PyTorch's does: DTensor's by the functional collective
# it calls (`c10d_functional.all_gather_into_tensor`, ...), the others
# (the program's own `dist.*` calls, FSDP's) by the c10d op behind them
# (`c10d._allgather_base_`); a barrier is not counted.
import torch.distributed as dist

_C10D_OPS = {
    "all_reduce": "allreduce_",
    "broadcast": "broadcast_",
    "all_gather": "allgather_",
    "all_gather_into_tensor": "_allgather_base_",
    "reduce_scatter_tensor": "_reduce_scatter_base_",
    "reduce_scatter": "reduce_scatter_",
    "reduce": "reduce_",
    "gather": "gather_",
    "scatter": "scatter_",
    "all_to_all_single": "alltoall_base_",
    "all_to_all": "alltoall_",
}


class CommDebugMode:
    def __init__(self):
        self.comm_counts = {}

    def __enter__(self):
        self.comm_counts = {}
        dist._state["comm_modes"].append(self)
        return self

    def __exit__(self, *exc):
        dist._state["comm_modes"].remove(self)
        return False

    def _count(self, name):
        if dist._state.get("functional"):
            key = "c10d_functional." + name
        elif name in _C10D_OPS:
            key = "c10d." + _C10D_OPS[name]
        else:
            return
        self.comm_counts[key] = self.comm_counts.get(key, 0) + 1

    def get_comm_counts(self):
        return dict(self.comm_counts)

    def get_total_counts(self):
        return sum(self.comm_counts.values())
