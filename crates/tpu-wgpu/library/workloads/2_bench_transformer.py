# A copy of `tpu bench`'s transformer block (`crates/tpu-cli/src/bench/transformer.py`)
# at the library's sizes, for the fused kernels it makes.
STEPS = 2
COMPILED = False
BATCH = 2
TOKENS = 4
WIDTH = 16
HEADS = 2
# Benchmark (b): a transformer block, forward and backward.
# COMPILED runs the block through torch.compile (forward and backward graphs).
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
device = "tpu"
torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(att.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


block = Block(WIDTH, HEADS).to(device)
if COMPILED:
    block = torch.compile(block)
x = torch.randn(BATCH, TOKENS, WIDTH, device=device)
for step in range(STEPS):
    out = block(x)
    loss = out.pow(2).mean()
    block.zero_grad()
    loss.backward()
    last = loss.item()
print(round(last, 4))
