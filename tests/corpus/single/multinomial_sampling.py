# torch.multinomial as samplers call it (makemore, minGPT, nanoGPT): one draw
# per row from softmax probabilities, several without and with replacement,
# with a Generator, and the errors PyTorch raises. A seed draws what PyTorch
# draws: ATen's exponential race without replacement, its cumulative search
# with it.
import torch

device = "tpu"
torch.manual_seed(1337)
logits = torch.randn(4, 27, device=device)
probs = torch.softmax(logits, dim=-1)
idx = torch.multinomial(probs, num_samples=1)
print(idx.shape, idx.dtype, idx.flatten().tolist())
print(torch.multinomial(probs[0], 5).tolist())
print(torch.multinomial(probs, 6, replacement=True).tolist())
print(probs[1].multinomial(3).tolist())

g = torch.Generator().manual_seed(42)
print(torch.multinomial(probs.cpu(), 2, generator=g).tolist())

# Unnormalised weights, and a row that can only give one answer.
w = torch.tensor([[0.0, 10.0, 0.0], [1.0, 1.0, 2.0]], device=device)
print(torch.multinomial(w, 1).flatten().tolist(), torch.multinomial(w, 4, True)[0].tolist())

# Sampling a sequence, as a language model's generate loop does.
torch.manual_seed(0)
seq = []
for _ in range(8):
    p = torch.softmax(torch.randn(1, 10, device=device), dim=-1)
    seq.append(torch.multinomial(p, num_samples=1).item())
print(seq)

x = torch.empty(6, device=device).exponential_()
print([round(v, 4) for v in x.tolist()])

for bad in [lambda: torch.multinomial(probs, 0),
            lambda: torch.multinomial(probs[0], 28),
            lambda: torch.multinomial(torch.tensor([1, 2]), 1),
            lambda: torch.multinomial(torch.zeros(3), 1),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1),
            lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 2, True),
            lambda: torch.multinomial(torch.ones(2, 2, 2), 1)]:
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
