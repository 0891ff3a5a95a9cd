# Bounded dynamic shapes: one compiled language-model step over sequence
# lengths 3, 5, 8, 13 (batch 1), and a batched attention with a causal mask.
# Dynamo compiles twice (the second call makes the length dynamic); the
# runtime runs the dynamic compile padded to a bound, masking what padding
# would change (softmax and means over the padded length, the contraction
# of probabilities with values, the embedding lookups of padded positions).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
frames = 0


def counting_backend(gm, example_inputs):
    global frames
    frames += 1
    return gm.forward


class TinyLM(nn.Module):
    def __init__(self, vocab=11, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 32), nn.GELU(), nn.Linear(32, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens, targets):
        x = self.emb(tokens)  # [1, s, dim]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        s = tokens.size(1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        causal = torch.triu(torch.ones(s, s, dtype=torch.bool, device=tokens.device), diagonal=1)
        scores = scores.masked_fill(causal, float("-inf"))
        x = x + F.softmax(scores, dim=-1) @ v
        x = x + self.mlp(self.norm(x))
        logits = self.head(x)[0]  # [s, vocab]
        return F.cross_entropy(logits, targets), logits.mean(dim=0)


model = TinyLM().to(device)
step = torch.compile(model, backend=counting_backend)
with torch.no_grad():
    for s in [3, 5, 8, 13]:
        tokens = torch.randint(0, 11, (1, s), device=device)
        targets = torch.randint(0, 11, (s,), device=device)
        loss, mean_logits = step(tokens, targets)
        ref_loss, ref_mean = model(tokens, targets)
        print(f"s={s} frames={frames} loss={loss.item():.5f}",
              torch.allclose(loss, ref_loss, atol=1e-5), torch.allclose(mean_logits, ref_mean, atol=1e-5))
        print(mean_logits.cpu())


def pooled_attention(x, w):
    h = x @ w
    s = x.size(1)
    scores = h @ x.transpose(1, 2) / math.sqrt(x.size(-1))
    keep = torch.ones(s, s, device=x.device).tril().bool()
    scores = torch.where(keep, scores, torch.full_like(scores, -1e9))
    att = scores.softmax(dim=-1)
    out = att @ x
    return out.amax(dim=1), out.sum(dim=1) / s, out.cumsum(dim=1)[:, -1]


w = torch.randn(6, 6, device=device)
f = torch.compile(pooled_attention)
for s in [4, 7, 9, 12]:
    x = torch.randn(2, s, 6, device=device)
    mx, mean, last = f(x, w)
    rmx, rmean, rlast = pooled_attention(x, w)
    print(f"s={s}", tuple(mx.shape), torch.allclose(mx, rmx, atol=1e-5),
          torch.allclose(mean, rmean, atol=1e-5), torch.allclose(last, rlast, atol=1e-4))
    print(mean.cpu())

# Training through the compiled model at changing lengths: the backward
# reads what the padded forward saved.
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for s in [4, 6, 9]:
    tokens = torch.randint(0, 11, (1, s), device=device)
    targets = torch.randint(0, 11, (s,), device=device)
    loss, _ = step(tokens, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"train s={s} loss={loss.item():.5f} grad={model.head.weight.grad.abs().sum().item():.4f}")
print(f"frames={frames}")
