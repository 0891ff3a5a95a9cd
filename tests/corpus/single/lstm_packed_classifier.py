# A sequence classifier as NLP scripts write it: padded batches of token
# sequences, an Embedding with padding_idx, pack_padded_sequence into a
# bidirectional LSTM, the final hidden states of both directions into a
# Linear, trained with Adam for a few steps.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence

device = "tpu"
torch.manual_seed(0)
seqs = [torch.randint(1, 20, (n,)) for n in (5, 3, 7, 2, 6, 4)]
lengths = torch.tensor([len(s) for s in seqs])
targets = torch.tensor([0, 1, 1, 0, 1, 0], device=device)
batch = pad_sequence(seqs, batch_first=True).to(device)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(20, 8, padding_idx=0)
        self.lstm = nn.LSTM(8, 6, batch_first=True, bidirectional=True)
        self.head = nn.Linear(12, 2)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        return self.head(torch.cat([h[0], h[1]], dim=1))


model = Classifier().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for step in range(5):
    logits = model(batch, lengths)
    loss = nn.functional.cross_entropy(logits, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5), logits.argmax(1).tolist())
print([round(v, 4) for v in model.lstm.weight_hh_l0_reverse[0].tolist()])
print(model.embed.weight.grad[0].abs().sum().item())
