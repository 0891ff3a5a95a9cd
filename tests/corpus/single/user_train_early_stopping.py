# Train/validation split with early stopping on validation loss, keeping and restoring the best weights.
import copy
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(17)

x = torch.rand(60, 1) * 6 - 3
y = torch.sin(x) + 0.3 * torch.randn(60, 1)
perm = torch.randperm(60)
train_idx, val_idx = perm[:45], perm[45:]
x_train, y_train = x[train_idx].to(device), y[train_idx].to(device)
x_val, y_val = x[val_idx].to(device), y[val_idx].to(device)
print("train", tuple(x_train.shape), "val", tuple(x_val.shape))

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
loss_fn = nn.MSELoss()

best_loss, best_state, best_epoch = float("inf"), None, -1
patience, bad_epochs = 5, 0
for epoch in range(200):
    model.train()
    opt.zero_grad()
    train_loss = loss_fn(model(x_train), y_train)
    train_loss.backward()
    opt.step()

    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(x_val), y_val).item()
    if val_loss < best_loss - 1e-4:
        best_loss, best_epoch, bad_epochs = val_loss, epoch, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d} train {train_loss.item():.4f} val {val_loss:.4f} bad {bad_epochs}")
    if bad_epochs >= patience:
        print(f"early stop at epoch {epoch}, best epoch {best_epoch} val {best_loss:.4f}")
        break

with torch.no_grad():
    last_val = loss_fn(model(x_val), y_val).item()
model.load_state_dict(best_state)
with torch.no_grad():
    restored_val = loss_fn(model(x_val), y_val).item()
print(f"last val {last_val:.4f} -> restored val {restored_val:.4f}")
print("restored equals best:", abs(restored_val - best_loss) < 1e-6)
