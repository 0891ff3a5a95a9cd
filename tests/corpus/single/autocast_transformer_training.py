# A small decoder-only transformer trained under torch.autocast (bfloat16),
# as nanoGPT's train.py runs it: attention, LayerNorm, GELU and softmax see
# bfloat16 activations, the loss is float32, the weights and their
# gradients stay float32, and AdamW steps them.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
vocab, dim, block = 16, 32, 8


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.attn(self.ln1(x)).split(dim, dim=2)
        q, k, v = (z.view(b, t, 4, c // 4).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block, dim)
        self.blocks = nn.Sequential(Block(), Block())
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        x = self.ln_f(self.blocks(x))
        logits = self.head(x)
        return logits, F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1))


model = GPT().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
data = torch.randint(0, vocab, (4, block + 1), device=device)
x, y = data[:, :-1], data[:, 1:]


def train_step(step):
    with torch.autocast(device_type=device, dtype=torch.bfloat16):
        logits, loss = model(x, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(step, logits.dtype, loss.dtype, round(loss.item(), 3), round(norm.item(), 2),
          model.head.weight.grad.dtype)


for step in range(2):
    train_step(step)
# The bfloat16 logits themselves, after two steps. (Later, AdamW's
# normalised steps turn float32 rounding noise in tiny gradients into
# differences of one bfloat16 ulp in a few logits, so only the losses are
# compared from here on.)
with torch.no_grad(), torch.autocast(device_type=device, dtype=torch.bfloat16):
    logits, loss = model(x, y)
    print(logits[0, -1].float().cpu(), round(loss.item(), 3))
for step in range(2, 6):
    train_step(step)
