# A compiled nn.Module with Embedding, attention-like matmuls (q @ k^T,
# causal mask, softmax, @ v), LayerNorm and a Linear head; compared to eager.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)


class TinyAttn(nn.Module):
    def __init__(self, vocab=11, d=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        att = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        t = ids.size(1)
        mask = torch.tril(torch.ones(t, t, device=ids.device, dtype=torch.bool))
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        return self.head(self.norm(h + att @ v))


model = TinyAttn().to(device).eval()
cm = torch.compile(model)
ids = torch.randint(0, 11, (2, 5), device=device)
with torch.no_grad():
    out = cm(ids)
    ref = model(ids)
print(f"shape {tuple(out.shape)}, matches eager {torch.allclose(out, ref, atol=1e-5)}")
print(f"logits sum {out.sum().item():.4f}, first {out[0, 0, 0].item():.4f}")
print(out[1, -1].cpu())
print(F.softmax(out[0, 0], dim=-1).argmax().item(), out.argmax(dim=-1).cpu())
