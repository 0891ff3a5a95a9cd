# A custom Dataset subclass returning dicts, the default collate, and a training pass over it.
import torch
from torch.utils.data import Dataset, DataLoader

device = "tpu"
torch.manual_seed(3)


class SquaresDataset(Dataset):
    def __init__(self, n):
        self.x = torch.linspace(-2, 2, n)
        self.noise = 0.05 * torch.randn(n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        x = self.x[idx]
        return {"input": x.unsqueeze(0), "target": (x * x + self.noise[idx]).unsqueeze(0), "index": idx}


ds = SquaresDataset(12)
print("size", len(ds))
sample = ds[2]
print("sample keys", sorted(sample.keys()), "input", sample["input"], "index", sample["index"])

loader = DataLoader(ds, batch_size=5)
for batch in loader:
    break
print("batch input shape", tuple(batch["input"].shape), "indices", batch["index"])
print("batch sizes", [len(b["index"]) for b in loader])

model = torch.nn.Sequential(torch.nn.Linear(1, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(15):
    epoch_loss = 0.0
    for batch in DataLoader(ds, batch_size=4, shuffle=True):
        pred = model(batch["input"].to(device))
        loss = torch.nn.functional.mse_loss(pred, batch["target"].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1}: summed batch loss {epoch_loss:.4f}")

try:
    ds[20]
except IndexError as e:
    print("IndexError:", e)


class Pairs(Dataset):
    def __getitem__(self, i):
        return i, float(i) / 2


print([b for b in DataLoader([(1, 2.0), (3, 4.0), (5, 6.0)], batch_size=2)])
print(list(DataLoader(Pairs(), batch_size=3, sampler=[4, 1, 0]))[0])
