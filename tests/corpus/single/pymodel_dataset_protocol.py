# A map-style dataset with __len__/__getitem__, iterated by for, by hand-written batching, and with in/iter/next.
import torch

device = "tpu"
torch.manual_seed(1)


class SquaresDataset:
    def __init__(self, n):
        self.xs = torch.arange(n, dtype=torch.float32)

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        if i >= len(self):
            raise IndexError(f"index {i} out of range for {len(self)} items")
        x = self.xs[i]
        return x, x * x

    def __contains__(self, value):
        return bool((self.xs == value).any())


ds = SquaresDataset(7)
print(len(ds), ds[2][1].item(), ds[-1][0].item(), 3.0 in ds, 9.5 in ds)
total = 0.0
for x, y in ds:
    total += y.item()
print("sum of squares:", total)


def batches(dataset, batch_size):
    order = torch.randperm(len(dataset)).tolist()
    out = []
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        xs = torch.stack([dataset[i][0] for i in idx]).to(device)
        ys = torch.stack([dataset[i][1] for i in idx]).to(device)
        out.append((xs, ys))
    return out


for xb, yb in batches(ds, 3):
    print(xb.cpu().tolist(), (yb - xb ** 2).abs().max().item())
it = iter(ds)
print(next(it)[0].item(), next(it)[0].item())
print([int(x.item()) for x, _ in ds][::2], list(zip(range(2), [y.item() for _, y in ds])))
try:
    ds[10]
except IndexError as e:
    print("IndexError:", e)
