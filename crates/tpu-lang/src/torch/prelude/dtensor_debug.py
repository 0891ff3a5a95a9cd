# torch.distributed.tensor.debug: CommDebugMode counts the collectives run
# inside its block, by the functional collective DTensor calls for each
# (`c10d_functional.all_gather_into_tensor`, ...), as PyTorch's does.
import torch.distributed as dist


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
        key = "c10d_functional." + name
        self.comm_counts[key] = self.comm_counts.get(key, 0) + 1

    def get_comm_counts(self):
        return dict(self.comm_counts)

    def get_total_counts(self):
        return sum(self.comm_counts.values())
