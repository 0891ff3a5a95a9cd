# The recurrent layers as the examples use them: nn.LSTM with batch_first
# (mnist_rnn), nn.GRU and nn.RNN with several layers, bidirectional, given
# and default states, unbatched input; the cells; their parameters, reprs,
# init streams, gradients through time, and a few training steps.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
lstm = nn.LSTM(input_size=5, hidden_size=4, batch_first=True).to(device)
print(lstm, [n for n, _ in lstm.named_parameters()], [tuple(p.shape) for p in lstm.parameters()])
x = torch.randn(3, 6, 5, device=device)
out, (h, c) = lstm(x)
print(tuple(out.shape), tuple(h.shape), tuple(c.shape))
print([round(v, 4) for v in out[0, -1].tolist()], torch.allclose(out[:, -1], h[0]))

gru = nn.GRU(5, 3, num_layers=2, bidirectional=True).to(device)
print(gru, [n for n, _ in gru.named_parameters()][:6])
seq = torch.randn(4, 2, 5, device=device)
h0 = torch.randn(4, 2, 3, device=device)
out, hn = gru(seq, h0)
print(tuple(out.shape), tuple(hn.shape), [round(v, 4) for v in out[-1, 0].tolist()])
print([round(v, 4) for v in hn[:, 1, 0].tolist()])

rnn = nn.RNN(5, 2, nonlinearity="relu", bias=False).to(device)
print(rnn, [round(v, 4) for v in rnn(torch.randn(4, 5, device=device))[0][-1].tolist()])

cell = nn.LSTMCell(5, 4).to(device)
hx, cx = cell(torch.randn(2, 5, device=device))
print(cell, nn.GRUCell(5, 4, bias=False), nn.RNNCell(5, 4, nonlinearity="relu"))
print([round(v, 4) for v in hx[1].tolist()], [round(v, 4) for v in cx[1].tolist()])
g = nn.GRUCell(5, 4).to(device)
print([round(v, 4) for v in g(torch.randn(5, device=device)).tolist()])

# Training through time.
torch.manual_seed(1)
model = nn.LSTM(2, 8, batch_first=True).to(device)
head = nn.Linear(8, 1).to(device)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=0.05)
data = torch.randn(16, 7, 2, device=device)
target = data.sum(dim=(1, 2)).unsqueeze(1)
for step in range(5):
    out, _ = model(data)
    loss = nn.functional.mse_loss(head(out[:, -1]), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(round(model.weight_hh_l0.grad.abs().sum().item(), 4))

for bad in [lambda: lstm(torch.randn(3, 6, 4, device=device)),
            lambda: lstm(torch.randn(2, 3, 4, 5, device=device)),
            lambda: gru(seq, torch.randn(2, 2, 3, device=device))]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
