# A character bigram language model: nn.Embedding as the logit table, cross-entropy, greedy decoding.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(1337)

text = "hello world. hold the wheel. we held the door open. "
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
vocab = len(chars)
print("vocab", vocab, repr("".join(chars)))
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
xs, ys = data[:-1].to(device), data[1:].to(device)
print("pairs", xs.numel(), "first", [(itos[a], itos[b]) for a, b in zip(xs[:4].tolist(), ys[:4].tolist())])


class Bigram(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.table = nn.Embedding(vocab, vocab)

    def forward(self, idx, targets=None):
        logits = self.table(idx)
        loss = None if targets is None else F.cross_entropy(logits, targets)
        return logits, loss


model = Bigram(vocab).to(device)
print(model)
_, loss = model(xs, ys)
print("initial loss", round(loss.item(), 4), "uniform would be", round(torch.log(torch.tensor(float(vocab))).item(), 4))
opt = torch.optim.AdamW(model.parameters(), lr=0.1)
for step in range(100):
    _, loss = model(xs, ys)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 25 == 0:
        print("step", step, "loss", round(loss.item(), 4))

with torch.no_grad():
    idx = torch.tensor([stoi["h"]], device=device)
    out = ["h"]
    for _ in range(12):
        logits, _ = model(idx)
        idx = logits.argmax(dim=-1)
        out.append(itos[idx.item()])
print("greedy:", repr("".join(out)))
probs = F.softmax(model.table.weight.detach()[stoi["e"]], dim=0).cpu()
top = sorted(enumerate(probs.tolist()), key=lambda pair: -pair[1])[:3]
print("after 'e':", [(itos[i], round(p, 3)) for i, p in top])
