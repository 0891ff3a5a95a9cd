# nproc: 2
# The object collectives besides all_gather_object: broadcast_object_list
# (a config from rank 0), gather_object to one rank, scatter_object_list from
# one rank, with objects of different sizes on each rank.
import torch
import torch.distributed as dist

device = "tpu"

dist.init_process_group("gloo")
rank = dist.get_rank()
config = [{"lr": 0.1, "layers": [4, 8]}, "run-" + "a" * 9, 7] if rank == 0 else [None, None, None]
dist.broadcast_object_list(config, src=0)
print(config)
out = [None, None] if rank == 1 else None
dist.gather_object({"rank": rank, "words": ["w"] * (rank + 2)}, out, dst=1)
print(out)
got = [None]
dist.scatter_object_list(got, [("first", 1), ("second", [2, 2, 2])] if rank == 0 else None, src=0)
print(got)
dist.destroy_process_group()
