# torch.optim.SGD: plain, with momentum, and with weight_decay on a tiny least-squares problem.
import torch

device = "tpu"

X = torch.tensor([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5], [-1.0, 1.5]], device=device)
y = torch.tensor([[3.0], [0.5], [1.0], [1.0]], device=device)


def run(**kw):
    w = torch.tensor([[0.1], [-0.2]], device=device, requires_grad=True)
    b = torch.zeros(1, device=device, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=0.05, **kw)
    losses = []
    for step in range(25):
        opt.zero_grad()
        loss = ((X @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        if step % 8 == 0:
            losses.append(round(loss.item(), 4))
    print(losses)
    print([round(v, 4) for v in w.detach().cpu().flatten().tolist()], round(b.item(), 4))
    return w


run()
run(momentum=0.9)
run(weight_decay=0.1)
run(momentum=0.5, weight_decay=0.01)
p = torch.tensor([1.0, -1.0], device=device, requires_grad=True)
opt = torch.optim.SGD([p], lr=0.5)
(p * p).sum().backward()
print(p.grad.cpu())
opt.step()
print(p.detach().cpu(), p.grad.cpu())
opt.zero_grad()
print(p.grad)
