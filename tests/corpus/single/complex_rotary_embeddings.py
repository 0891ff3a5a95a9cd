# Rotary position embeddings as Meta's LLaMA reference model.py writes them
# (precompute_freqs_cis, reshape_for_broadcast, apply_rotary_emb: complex
# tensors through torch.polar, view_as_complex and view_as_real), inside an
# attention step that trains, so the gradients go through the complex ops.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)  # type: ignore
    freqs = torch.outer(t, freqs).float()  # type: ignore
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex64
    return freqs_cis


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


freqs_cis = precompute_freqs_cis(8, 16)
print(freqs_cis.dtype, freqs_cis.shape)
print(freqs_cis[:3, :2])
print(freqs_cis[5])


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, freqs_cis):
        bsz, seqlen, _ = x.shape
        xq = self.wq(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = self.wk(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xv = self.wv(x).view(bsz, seqlen, self.n_heads, self.head_dim)
        xq, xk = apply_rotary_emb(xq, xk, freqs_cis=freqs_cis)
        xq, xk, xv = xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2)
        out = F.scaled_dot_product_attention(xq, xk, xv, is_causal=True)
        return self.wo(out.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


torch.manual_seed(0)
attn = Attention(16, 2).to(device)
freqs = precompute_freqs_cis(8, 6).to(device)
opt = torch.optim.AdamW(attn.parameters(), lr=1e-2)
x = torch.randn(2, 6, 16, device=device)
target = torch.randn(2, 6, 16, device=device)
for step in range(4):
    out = attn(x, freqs)
    loss = F.mse_loss(out, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(attn.wq.weight.grad[0, :4].cpu())
