# One transformer encoder block (nn.MultiheadAttention + MLP, pre-norm) learning to count earlier matching tokens.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d_model=16, n_heads=2):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, mask=None):
        h = self.ln1(x)
        attn_out, weights = self.attn(h, h, h, attn_mask=mask, need_weights=True)
        x = x + attn_out
        return x + self.mlp(self.ln2(x)), weights


class TinyEncoder(nn.Module):
    def __init__(self, vocab=5, seq=6, d_model=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.zeros(1, seq, d_model))
        self.block = Block(d_model)
        self.out = nn.Linear(d_model, seq)

    def forward(self, idx, mask=None):
        x, weights = self.block(self.tok(idx) + self.pos, mask)
        return self.out(x), weights


model = TinyEncoder().to(device)
print(model.block.attn)
print("params", sum(p.numel() for p in model.parameters()))
print([n for n, _ in model.block.attn.named_parameters()])

seq = 6
causal = torch.triu(torch.ones(seq, seq, dtype=torch.bool), diagonal=1).to(device)
tokens = torch.randint(0, 5, (16, seq))
target = torch.stack([(tokens[:, :i + 1] == tokens[:, i:i + 1]).sum(1) - 1 for i in range(seq)], dim=1)
tokens, target = tokens.to(device), target.to(device)
print("example", tokens[0].tolist(), "->", target[0].tolist())

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(16):
    logits, weights = model(tokens, causal)
    loss = nn.functional.cross_entropy(logits.reshape(-1, seq), target.reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 5 == 0 or step == 15:
        acc = (logits.argmax(-1) == target).float().mean().item()
        print(f"step {step:2d} loss {loss.item():.4f} acc {acc:.3f}")

print("attention weights shape", tuple(weights.shape))
row = weights[0].detach().cpu()
print("causal: upper triangle is zero", bool((row.triu(1) == 0).all()), "rows sum to 1", bool(torch.allclose(row.sum(-1), torch.ones(seq))))
