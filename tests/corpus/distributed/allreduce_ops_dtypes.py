# nproc: 4
# all_reduce with every ReduceOp on float32, float64, int64, int32 and bool tensors.
# Gloo averages floating tensors with AVG but refuses it for integer and bool ones.
import torch
import torch.distributed as dist

device = "tpu"
dist.init_process_group("gloo")
rank = dist.get_rank()
world = dist.get_world_size()

ops = [("SUM", dist.ReduceOp.SUM), ("PRODUCT", dist.ReduceOp.PRODUCT),
       ("MIN", dist.ReduceOp.MIN), ("MAX", dist.ReduceOp.MAX), ("AVG", dist.ReduceOp.AVG)]
for dtype in [torch.float32, torch.float64, torch.int64, torch.int32]:
    for name, op in ops:
        t = torch.tensor([rank + 1, 2 * rank - 3, 5 - rank], dtype=dtype, device=device)
        try:
            dist.all_reduce(t, op=op)
            print(f"{str(dtype):14} {name:8} {t.tolist()} {t.dtype}")
        except RuntimeError as e:
            print(f"{str(dtype):14} {name:8} {type(e).__name__}: {e}")

# Bitwise ops exist for integers only.
for name, op in [("BAND", dist.ReduceOp.BAND), ("BOR", dist.ReduceOp.BOR), ("BXOR", dist.ReduceOp.BXOR)]:
    t = torch.tensor([rank + 1, 12], dtype=torch.int64, device=device)
    dist.all_reduce(t, op=op)
    print(name, t.tolist())
try:
    dist.all_reduce(torch.ones(2, device=device), op=dist.ReduceOp.BAND)
except RuntimeError as e:
    print("BAND on float:", e)

# Bool tensors: SUM behaves as "any", PRODUCT and MIN as "all".
for name, op in ops[:4]:
    flags = torch.tensor([rank == 0, rank < world, False], device=device)
    dist.all_reduce(flags, op=op)
    print("bool", name, flags.tolist())

# The default op is SUM, and all_reduce works in place and returns None.
t = torch.full((2, 2), 0.5 * rank, device=device)
ret = dist.all_reduce(t)
print("default op:", t.cpu(), "returned", ret)
dist.destroy_process_group()
