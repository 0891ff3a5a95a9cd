# An autoencoder squeezing 8-D points that live on a 2-D plane through a 2-unit bottleneck.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(5)

basis = torch.randn(2, 8)
codes = torch.randn(128, 2)
data = (codes @ basis + 0.01 * torch.randn(128, 8)).to(device)


class AutoEncoder(nn.Module):
    def __init__(self, dim=8, bottleneck=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 6), nn.SiLU(), nn.Linear(6, bottleneck))
        self.decoder = nn.Sequential(nn.Linear(bottleneck, 6), nn.SiLU(), nn.Linear(6, dim))

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


ae = AutoEncoder().to(device)
print(ae)
opt = torch.optim.AdamW(ae.parameters(), lr=0.05, weight_decay=1e-4)
criterion = nn.MSELoss()

for epoch in range(16):
    perm = torch.randperm(128)
    for i in range(0, 128, 64):
        batch = data[perm[i:i + 64].to(device)]
        recon, _ = ae(batch)
        loss = criterion(recon, batch)
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 4 == 3:
        with torch.no_grad():
            full, _ = ae(data)
            print(f"epoch {epoch + 1}: full reconstruction mse {criterion(full, data).item():.5f}")

ae.eval()
with torch.no_grad():
    recon, z = ae(data[:4])
    per_sample = nn.functional.mse_loss(recon, data[:4], reduction="none").mean(dim=1)
print("codes shape", tuple(z.shape))
print("per-sample error", [round(v, 4) for v in per_sample.cpu().tolist()])
print("variance captured", round(1 - ((recon - data[:4]) ** 2).sum().item() / ((data[:4] - data.mean(0)) ** 2).sum().item(), 3))
