# nn.TransformerEncoder(Layer), nn.TransformerDecoder(Layer) and nn.Transformer
# as the word-language-model and translation tutorials use them: a causal mask,
# padding masks, pre-norm and post-norm, gelu by name, dropout in training (its
# random stream is PyTorch's), the deep-copied layers, and a few SGD steps.
import math
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return self.dropout(x + self.pe[: x.size(0), :])


class LanguageModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        layer = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers, enable_nested_tensor=False)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)

    def forward(self, src):
        mask = nn.Transformer.generate_square_subsequent_mask(len(src)).to(src.device)
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, mask)
        return torch.log_softmax(self.decoder(output), dim=-1)


model = LanguageModel(20, 16, 2, 32, 2).to(device)
print(model.transformer_encoder.layers[0])
print(len(list(model.parameters())), sum(p.numel() for p in model.parameters()))
print(torch.equal(model.transformer_encoder.layers[0].linear1.weight, model.transformer_encoder.layers[1].linear1.weight))
print(nn.Transformer.generate_square_subsequent_mask(3))
data = torch.randint(0, 20, (7, 4), device=device)
target = torch.randint(0, 20, (7, 4), device=device)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(3):
    model.train()
    opt.zero_grad()
    out = model(data)
    loss = nn.functional.nll_loss(out.view(-1, 20), target.view(-1))
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
model.eval()
with torch.no_grad():
    print(model(data)[0, :2, :4].cpu())

pre = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True).to(device)
x = torch.randn(2, 5, 8, device=device)
pad = torch.tensor([[False, False, False, True, True], [False] * 5], device=device)
print(pre(x, src_key_padding_mask=pad)[0, :2].detach().cpu())

torch.manual_seed(1)
t = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=16,
                   dropout=0.0).to(device)
src = torch.randn(6, 3, 8, device=device)
tgt = torch.randn(4, 3, 8, device=device)
out = t(src, tgt, tgt_mask=t.generate_square_subsequent_mask(4).to(device))
print(out.shape, out[0, 0].detach().cpu())
print(type(t.decoder.layers[1]).__name__, t.encoder.norm, len(t.decoder.layers))
try:
    t(src, torch.randn(4, 2, 8, device=device))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.TransformerEncoderLayer(8, 2, activation="tanh")
except RuntimeError as e:
    print("RuntimeError:", e)
