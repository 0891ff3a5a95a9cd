# torch.save and torch.load as training scripts use them: a model's and an
# optimiser's state_dict with the step, to a file and to a BytesIO, loaded
# back into fresh objects that then train on exactly as the originals would;
# weights_only (the default) refusing a class it does not know, and loading
# it with weights_only=False.
import io
import os
import tempfile

import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
x = torch.randn(16, 4, device=device)
y = torch.randn(16, 1, device=device)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 5))

path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "iter_num": 3,
            "config": {"n_layer": 2, "dropout": 0.0}}, path)
print(os.path.getsize(path) > 0)

ck = torch.load(path, map_location=device)
print(sorted(ck), ck["iter_num"], ck["config"])
print(list(ck["optimizer"]["state"][0]), ck["optimizer"]["param_groups"][0]["lr"])

model2 = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt2 = torch.optim.AdamW(model2.parameters(), lr=1e-2)
print(model2.load_state_dict(ck["model"]))
opt2.load_state_dict(ck["optimizer"])
for m, o in [(model, opt), (model2, opt2)]:
    loss = nn.functional.mse_loss(m(x), y)
    o.zero_grad()
    loss.backward()
    o.step()
    print("next step", round(loss.item(), 5), round(m[0].weight.sum().item(), 5))

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
sd = torch.load(buffer)
print(type(sd).__name__, list(sd), list(sd._metadata.items()))
print(all(torch.equal(sd[k].cpu(), v.cpu()) for k, v in model.state_dict().items()))

# One parameter under two names stays one tensor after a round trip.
shared = nn.Linear(3, 3, bias=False)
tied = {"a": shared.weight, "b": shared.weight}
buffer = io.BytesIO()
torch.save(tied, buffer)
buffer.seek(0)
back = torch.load(buffer)
print(type(back["a"]).__name__, back["a"].requires_grad, back["a"].data_ptr() == back["b"].data_ptr())


class Note:
    def __init__(self, text):
        self.text = text


buffer = io.BytesIO()
torch.save({"note": Note("hello"), "w": torch.ones(2)}, buffer)
buffer.seek(0)
try:
    torch.load(buffer)
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:40])
buffer.seek(0)
print(torch.load(buffer, weights_only=False)["note"].text)
