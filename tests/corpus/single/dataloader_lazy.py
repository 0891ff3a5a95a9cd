# DataLoader and its samplers draw lazily, as PyTorch's generators do: a
# RandomSampler of 10**10 samples with replacement (makemore's
# InfiniteDataLoader) costs nothing ahead, batches come one `next` at a time,
# and the draws interleave with the program's own as they would in PyTorch.
# Also an IterableDataset batched by the loader.
import torch
from torch.utils.data import DataLoader, RandomSampler, TensorDataset, IterableDataset

device = "tpu"
torch.manual_seed(0)
data = TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
sampler = RandomSampler(data, replacement=True, num_samples=int(1e10))
loader = DataLoader(data, sampler=sampler, batch_size=4)
it = iter(loader)
for step in range(3):
    x, y = next(it)
    noise = torch.randn(1).item()
    print(step, y.tolist(), x.shape, round(noise, 4))

shuffled = DataLoader(data, batch_size=3, shuffle=True, drop_last=True)
print(len(shuffled), [b[1].tolist() for b in shuffled])
print([b[1].tolist() for b in DataLoader(data, batch_size=4)])
it = iter(DataLoader(data, batch_size=6))
print(len(it), next(it)[1].tolist(), next(it)[1].tolist())
try:
    next(it)
except StopIteration:
    print("StopIteration")


class Squares(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([i * i], device=device)


print([b.flatten().tolist() for b in DataLoader(Squares(7), batch_size=3)])
print([b.flatten().tolist() for b in DataLoader(Squares(7), batch_size=3, drop_last=True)])
print([b.tolist() for b in DataLoader(Squares(3), batch_size=None)])
try:
    DataLoader(Squares(3), shuffle=True)
except ValueError as e:
    print("ValueError:", e)
