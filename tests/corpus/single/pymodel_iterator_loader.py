# A hand-written data loader: __iter__ returns a fresh iterator object whose __next__ builds batches lazily.
import torch

device = "tpu"
torch.manual_seed(9)


class BatchIterator:
    def __init__(self, x, y, batch_size, order):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.order = order
        self.pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.pos >= len(self.order):
            raise StopIteration
        idx = torch.tensor(self.order[self.pos:self.pos + self.batch_size])
        self.pos += self.batch_size
        print(f"  loading batch at {self.pos - self.batch_size}")
        return self.x[idx].to(device), self.y[idx].to(device)


class Loader:
    def __init__(self, x, y, batch_size, shuffle=False):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.shuffle = shuffle

    def __len__(self):
        return (len(self.x) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        n = len(self.x)
        order = torch.randperm(n).tolist() if self.shuffle else list(range(n))
        return BatchIterator(self.x, self.y, self.batch_size, order)


x = torch.randn(10, 3)
y = (x.sum(dim=1) > 0).long()
loader = Loader(x, y, batch_size=4, shuffle=True)
print("batches per epoch:", len(loader))
w = torch.zeros(3, 2, device=device, requires_grad=True)
for epoch in range(2):
    for step, (xb, yb) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(xb @ w, yb)
        loss.backward()
        with torch.no_grad():
            w -= 0.5 * w.grad
            w.grad.zero_()
    print(f"epoch {epoch} last loss {loss.item():.4f} after {step + 1} steps")
for xb, yb in Loader(x, y, batch_size=6):
    print("batch", tuple(xb.shape), yb.cpu().tolist())
    break
first_x, first_y = next(iter(Loader(x, y, 3)))
print(first_x.shape, first_y.shape)
it = iter(Loader(x[:2], y[:2], 2))
print(len(next(it)), next(it, "exhausted"))
print(sum(1 for _ in Loader(x, y, 5)))
