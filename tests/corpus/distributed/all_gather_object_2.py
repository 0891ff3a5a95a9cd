# nproc: 2
# dist.all_gather_object: any picklable object from every rank (dicts,
# strings of different lengths, tensors inside), as training scripts gather
# metrics and vocabularies.
import torch
import torch.distributed as dist

device = "tpu"

dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()
stats = {"rank": rank, "name": "worker-" + "x" * (rank * 7), "loss": 0.25 * (rank + 1), "seen": list(range(rank + 2))}
gathered = [None] * world
dist.all_gather_object(gathered, stats)
print(gathered)
tensors = [None, None]
dist.all_gather_object(tensors, torch.arange(3) + rank * 10)
print(tensors)
try:
    dist.all_gather_object([None], rank)
except Exception as e:
    print(type(e).__name__)
dist.destroy_process_group()
