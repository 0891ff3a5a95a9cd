# optim.LBFGS as pytorch/examples' time_sequence_prediction trains with it
# (a closure, lr=0.8, an LSTMCell model on sine waves), and with the
# strong-Wolfe line search on a least-squares fit; its state and repr.
import torch
import torch.nn as nn
import torch.optim as optim

device = "tpu"


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 12)
        self.lstm2 = nn.LSTMCell(12, 12)
        self.linear = nn.Linear(12, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 12, dtype=torch.float32, device=input.device)
        c_t = torch.zeros(input.size(0), 12, dtype=torch.float32, device=input.device)
        h_t2 = torch.zeros(input.size(0), 12, dtype=torch.float32, device=input.device)
        c_t2 = torch.zeros(input.size(0), 12, dtype=torch.float32, device=input.device)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


torch.manual_seed(0)
T = 20
x = torch.arange(4).reshape(4, 1) * 3 + torch.arange(T).reshape(1, T)
data = torch.sin(x / 1.0 / 5).float()
input = data[:3, :-1].to(device)
target = data[:3, 1:].to(device)
seq = Sequence().to(device)
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=6)
for i in range(3):
    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print("loss:", round(loss.item(), 5))
        loss.backward()
        return loss
    optimizer.step(closure)
state = optimizer.state[seq.lstm1.weight_ih]
print(state["func_evals"], state["n_iter"], len(state["old_dirs"]))
with torch.no_grad():
    pred = seq(data[3:, :-1].to(device), future=4)
    print(pred.shape, round(criterion(pred[:, :-4], data[3:, 1:].to(device)).item(), 5))

torch.manual_seed(1)
A = torch.randn(10, 3, device=device)
b = torch.randn(10, device=device)
w = torch.zeros(3, device=device, requires_grad=True)
opt = optim.LBFGS([w], lr=1, max_iter=50, history_size=5, line_search_fn="strong_wolfe")


def fit():
    opt.zero_grad()
    loss = ((A @ w - b) ** 2).mean()
    loss.backward()
    return loss


print(round(opt.step(fit).item(), 6))
print(round(fit().item(), 6), w.detach().cpu())
print(opt.state[w]["func_evals"] > 1, opt)
try:
    optim.LBFGS([{"params": [w]}, {"params": [torch.zeros(1, requires_grad=True)]}])
except ValueError as e:
    print("ValueError:", e)
