# Resuming a run exactly, as training scripts checkpoint it: torch's RNG
# state saved (PyTorch's 5056-byte format, checked field by field), more
# draws, the state restored and the same draws again; torch.Generator
# states; a state carried through torch.save; and the errors.
import io
import struct

import torch
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(7)
state = torch.get_rng_state()
raw = bytes(state.tolist())
print(state.dtype, state.shape, struct.unpack_from("<QiiQ", raw, 0), struct.unpack_from("<3Q", raw, 24))
a = torch.rand(3)
b = torch.randn(5, dtype=torch.float64)
after = bytes(torch.get_rng_state().tolist())
print(struct.unpack_from("<QiiQ", after, 0), struct.unpack_from("<dddi", after, 24 + 624 * 8))
torch.set_rng_state(state)
print(torch.equal(a, torch.rand(3)), torch.equal(b, torch.randn(5, dtype=torch.float64)))
print(torch.initial_seed(), torch.random.get_rng_state().sum().item() == torch.get_rng_state().sum().item())

torch.manual_seed(0)
x = torch.ones(2, 6, device=device)
mid = torch.get_rng_state()
first = F.dropout(x, 0.5)
torch.set_rng_state(mid)
print(torch.equal(first.cpu(), F.dropout(x, 0.5).cpu()), first.cpu())

g = torch.Generator().manual_seed(123)
gs = g.get_state()
one = torch.randint(0, 100, (6,), generator=g)
g.set_state(gs)
print(one, torch.randint(0, 100, (6,), generator=g), g.initial_seed())
torch.set_rng_state(gs)
print(torch.randint(0, 100, (6,)), torch.initial_seed())
h = torch.Generator()
h.set_state(torch.get_rng_state())
print(torch.rand(2, generator=h), torch.rand(2))

buffer = io.BytesIO()
torch.manual_seed(5)
torch.save({"rng": torch.get_rng_state(), "step": 3}, buffer)
expected = torch.randn(4)
buffer.seek(0)
ckpt = torch.load(buffer)
torch.set_rng_state(ckpt["rng"])
print(ckpt["step"], torch.equal(expected, torch.randn(4)))
with torch.random.fork_rng():
    torch.rand(10)
print(torch.rand(1))
for bad in [torch.zeros(10, dtype=torch.uint8), torch.zeros(5056)]:
    try:
        torch.set_rng_state(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
