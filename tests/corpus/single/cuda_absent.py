# The lines scripts write for CUDA, on a machine that has none: the queries
# say so, seeding is accepted and does nothing, the backends' flags can be set,
# and a script that falls back to another device runs there.
import torch
import torch.backends.cudnn as cudnn

print(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.is_initialized())
torch.manual_seed(1337)
torch.cuda.manual_seed(1337)
torch.cuda.manual_seed_all(1337)
print(torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated(), torch.cuda.is_bf16_supported())
torch.cuda.empty_cache()

print(cudnn.benchmark, cudnn.deterministic, cudnn.enabled)
cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)
print(torch.backends.mps.is_available(), torch.backends.cuda.matmul.allow_tf32)

device = "tpu"
device = "cuda" if torch.cuda.is_available() else device
x = torch.randn(2, 3, device=device)
print(x.is_cuda, x.sum().item() != 0)

try:
    torch.cuda.synchronize()
except RuntimeError:
    print("synchronize needs a device")
