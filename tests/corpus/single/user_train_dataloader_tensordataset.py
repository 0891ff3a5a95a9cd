# TensorDataset + DataLoader with a seeded generator: the batches come out in PyTorch's order.
import torch
from torch.utils.data import DataLoader, TensorDataset

device = "tpu"
torch.manual_seed(0)

features = torch.arange(20, dtype=torch.float32).reshape(10, 2)
targets = torch.arange(10) % 3
ds = TensorDataset(features, targets)
print("len(ds) =", len(ds))
x0, y0 = ds[3]
print("ds[3] =", x0, y0)

g = torch.Generator()
g.manual_seed(123)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
print("len(loader) =", len(loader))
for epoch in range(2):
    for i, (xb, yb) in enumerate(loader):
        print(f"epoch {epoch} batch {i}: x[:,0]={xb[:, 0].tolist()} y={yb.tolist()} shape={tuple(xb.shape)}")

loader = DataLoader(ds, batch_size=3, shuffle=False, drop_last=True)
print("drop_last batches:", len(loader), [yb.tolist() for _, yb in loader])

# Without a generator, shuffling draws from the global RNG.
torch.manual_seed(5)
order = [yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True)]
print("global-seed order:", order)
torch.manual_seed(5)
again = [yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True)]
print("reproducible:", order == again)

model = torch.nn.Linear(2, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for xb, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=g):
    loss = torch.nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("batch loss", round(loss.item(), 4))
print("next seed draw", torch.randint(0, 1000, (3,), generator=g).tolist())
