# More torch.nn layers (part of the torch.nn module, run after _loss.py in its
# namespace): Flatten, Unflatten and MultiheadAttention, the last following
# PyTorch's multi_head_attention_forward (its need_weights path) step by step.


class Flatten(Module):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return "start_dim=" + str(self.start_dim) + ", end_dim=" + str(self.end_dim)


class Unflatten(Module):
    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return "dim=" + str(self.dim) + ", unflattened_size=" + str(self.unflattened_size)


class NonDynamicallyQuantizableLinear(Linear):
    pass


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError("embed_dim and num_heads must be greater than 0, got embed_dim=" + str(embed_dim)
                             + " and num_heads=" + str(num_heads) + " instead")
        super().__init__()
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention(add_bias_kv=True or add_zero_attn=True)")
        if (kdim is not None and kdim != embed_dim) or (vdim is not None and vdim != embed_dim):
            raise NotImplementedError("MultiheadAttention with kdim or vdim other than embed_dim")
        self.embed_dim = embed_dim
        self.kdim = embed_dim
        self.vdim = embed_dim
        self._qkv_same_embed_dim = True
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), device=device, dtype=dtype))
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, device=device, dtype=dtype))
        else:
            self.in_proj_bias = None
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        self.bias_k = None
        self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        batched = query.dim() == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)
        # (L, N, E) from here on, as in PyTorch.
        tgt_len, bsz, embed_dim = query.shape
        src_len = key.shape[0]
        if embed_dim != self.embed_dim:
            raise AssertionError("was expecting embedding dimension of " + str(self.embed_dim) + ", but got "
                                 + str(embed_dim))
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        if self.in_proj_bias is not None:
            b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        else:
            b_q = b_k = b_v = None
        q = F.linear(query, w_q, b_q)
        k = F.linear(key, w_k, b_k)
        v = F.linear(value, w_v, b_v)
        if is_causal and attn_mask is None:
            attn_mask = torch.ones(tgt_len, src_len, dtype=torch.bool, device=query.device).triu(1)
        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                attn_mask = torch.zeros(attn_mask.shape, dtype=q.dtype, device=q.device).masked_fill(
                    attn_mask, float("-inf"))
            if attn_mask.dim() == 2:
                attn_mask = attn_mask.unsqueeze(0)
        if key_padding_mask is not None:
            if key_padding_mask.dtype == torch.bool:
                key_padding_mask = torch.zeros(key_padding_mask.shape, dtype=q.dtype,
                                               device=q.device).masked_fill(key_padding_mask, float("-inf"))
            padding = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, self.num_heads, -1, -1).reshape(
                bsz * self.num_heads, 1, src_len)
            attn_mask = padding if attn_mask is None else attn_mask + padding
        q = q.reshape(tgt_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        k = k.reshape(src_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        v = v.reshape(src_len, bsz * self.num_heads, self.head_dim).transpose(0, 1)
        q_scaled = q * math.sqrt(1.0 / float(self.head_dim))
        scores = q_scaled @ k.transpose(-2, -1)
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = torch.softmax(scores, -1)
        if self.dropout > 0.0:
            weights = F.dropout(weights, self.dropout, self.training)
        out = weights @ v
        out = out.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = F.linear(out, self.out_proj.weight, self.out_proj.bias)
        out = out.view(tgt_len, bsz, embed_dim)
        if self.batch_first and batched:
            out = out.transpose(0, 1)
        if not batched:
            out = out.squeeze(1)
        if not need_weights:
            return out, None
        weights = weights.view(bsz, self.num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(1)
        if not batched:
            weights = weights.squeeze(0)
        return out, weights
