# PyTorch errors caught and printed: matmul shape mismatch, broadcast failure, index out of range, double backward, mm dtype mismatch, bad view.
import torch

device = "tpu"


def attempt(fn):
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)


a = torch.ones(2, 3, device=device)
attempt(lambda: a @ torch.ones(2, 3, device=device))
attempt(lambda: torch.matmul(torch.ones(4, device=device), torch.ones(3, device=device)))
attempt(lambda: torch.ones(3, device=device) + torch.ones(4, device=device))
attempt(lambda: a * torch.ones(3, 2, device=device))
attempt(lambda: torch.arange(3.0, device=device)[5])
attempt(lambda: a[:, 3])
attempt(lambda: a[-3])
x = torch.tensor([1.0, 2.0], device=device, requires_grad=True)
y = (x.exp() * x).sum()
y.backward()
attempt(lambda: y.backward())
print(x.grad.cpu())
attempt(lambda: torch.mm(torch.ones(2, 2, device=device), torch.ones(2, 2, dtype=torch.int64, device=device)))
attempt(lambda: torch.arange(6.0, device=device).view(4, 2))
attempt(lambda: torch.arange(6.0, device=device).reshape(-1, 4))
attempt(lambda: a.view(5))
print("done")
