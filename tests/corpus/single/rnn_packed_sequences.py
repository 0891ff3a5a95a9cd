# Batches of sequences of different lengths, as text models batch them:
# pad_sequence, pack_padded_sequence (sorted and not), an LSTM, a GRU and a
# bidirectional RNN run on the packed batch, pad_packed_sequence back,
# the final states of each sequence at its own last step, gradients, and
# pack_sequence/unpack_sequence round trips.
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
                                unpack_sequence, unpad_sequence)

device = "tpu"
torch.manual_seed(0)
seqs = [torch.randn(n, 3, device=device) for n in (4, 2, 5, 1)]
padded = pad_sequence(seqs)
print(padded.shape, pad_sequence(seqs, batch_first=True).shape)
print(pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True, padding_value=-1))
print(pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True, padding_side="left"))
lengths = torch.tensor([4, 2, 5, 1])
packed = pack_padded_sequence(padded, lengths, enforce_sorted=False)
print(packed.batch_sizes, packed.sorted_indices.tolist(), packed.unsorted_indices.tolist(), packed.data.shape)
try:
    pack_padded_sequence(padded, lengths)
except RuntimeError as e:
    print("RuntimeError:", e)
back, back_lengths = pad_packed_sequence(packed)
print(back.shape, back_lengths, torch.equal(back.cpu(), padded.cpu()))
print(pad_packed_sequence(packed, batch_first=True, total_length=7, padding_value=9.0)[0][3, :, 0].cpu())

lstm = nn.LSTM(3, 4).to(device)
out, (h, c) = lstm(packed)
print(type(out).__name__, out.data.shape, h.shape, c.shape)
unpacked, lens = pad_packed_sequence(out, batch_first=True)
print(unpacked.shape, lens)
print([round(v, 4) for v in h[0, 1].tolist()], [round(v, 4) for v in unpacked[1, 1].tolist()])
alone, (h_alone, _) = lstm(seqs[1].unsqueeze(1))
print("same as alone", torch.allclose(h_alone[0, 0], h[0, 1], atol=1e-6), torch.allclose(alone[-1, 0], unpacked[1, 1], atol=1e-6))
print(unpacked[1, 2:].abs().sum().item(), unpacked[3, 1:].abs().sum().item())
(h.sum() + unpacked.sum()).backward()
print([round(v, 4) for v in lstm.weight_hh_l0.grad[0].tolist()])

gru = nn.GRU(3, 2, num_layers=2, batch_first=True).to(device)
batch = pad_sequence(seqs, batch_first=True)
h0 = torch.randn(2, 4, 2, device=device)
gout, gh = gru(pack_padded_sequence(batch, lengths, batch_first=True, enforce_sorted=False), h0)
gpad, _ = pad_packed_sequence(gout, batch_first=True)
print(gpad.shape, [round(v, 4) for v in gh[1].reshape(-1).tolist()])

birnn = nn.RNN(3, 2, bidirectional=True).to(device)
sorted_seqs = sorted(seqs, key=lambda s: -s.shape[0])
bout, bh = birnn(pack_sequence(sorted_seqs))
bpad, blens = pad_packed_sequence(bout)
print(bpad.shape, blens, [round(v, 4) for v in bh[1].reshape(-1).tolist()])
print([round(v, 4) for v in bpad[0, 0].tolist()], [round(v, 4) for v in bpad[1, 3].tolist()])

ps = pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])])
print(ps)
print(unpack_sequence(pack_sequence([torch.tensor([1, 2]), torch.tensor([3, 4, 5])], enforce_sorted=False)))
print(unpad_sequence(pad_sequence([torch.tensor([1, 2]), torch.tensor([3])]), torch.tensor([2, 1])))

# A 0-dim CPU tensor joins an op on another device as a number does.
x = torch.ones(3, device=device, requires_grad=True)
scale = torch.tensor(2.5, requires_grad=True)
y = (x * scale + torch.tensor(1.0)).sum()
y.backward()
print(y.item(), x.grad.cpu(), scale.grad, (torch.tensor(10.0) - x).detach().cpu(), (x > torch.tensor(0.5)).cpu())
