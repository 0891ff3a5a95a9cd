# DataLoader(num_workers=N) as training scripts use it: the same batches in
# the same order as without workers, random augmentation drawn from each
# worker's own seed (base_seed + worker id), get_worker_info() inside the
# dataset, a worker_init_fn seeding Python's random in each worker, an
# IterableDataset sharding itself by worker, and shuffling that stays the
# main process's.
import random

import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, TensorDataset, get_worker_info

device = "tpu"
data = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
plain = [b[0].tolist() for b in DataLoader(data, batch_size=3)]
workers = [b[0].tolist() for b in DataLoader(data, batch_size=3, num_workers=4)]
print(plain == workers, workers)


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        who = -1 if info is None else info.id
        return torch.tensor([float(i), torch.rand(1).item(), float(who), float(random.randint(0, 9))])


torch.manual_seed(0)
for batch in DataLoader(Noisy(), batch_size=2, num_workers=2):
    print([[round(v, 4) for v in row] for row in batch.tolist()])
torch.manual_seed(0)
again = [b.tolist() for b in DataLoader(Noisy(), batch_size=2, num_workers=2)]
torch.manual_seed(0)
print(again == [b.tolist() for b in DataLoader(Noisy(), batch_size=2, num_workers=2)], get_worker_info())
print(torch.rand(1))

def init(worker_id):
    # Runs inside the worker: what it seeds is the worker's.
    info = get_worker_info()
    random.seed(100 * info.num_workers + worker_id)


torch.manual_seed(1)
loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=3, worker_init_fn=init)
print([b[0].tolist() for b in loader], len(loader))
torch.manual_seed(2)
print([b[:, 3].tolist() for b in DataLoader(Noisy(), batch_size=3, num_workers=2, worker_init_fn=init)])
torch.manual_seed(1)
print([b[0].tolist() for b in DataLoader(data, batch_size=4, shuffle=True)])


class Stream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, 11, step))


print([b.tolist() for b in DataLoader(Stream(), batch_size=2, num_workers=2)])
print([b.tolist() for b in DataLoader(Stream(), batch_size=4)])
for x, y in DataLoader(data, batch_size=5, num_workers=2, persistent_workers=True, prefetch_factor=4):
    print(x.to(device).sum().item(), y.tolist())
try:
    DataLoader(data, prefetch_factor=2)
except ValueError as e:
    print("ValueError:", e)
