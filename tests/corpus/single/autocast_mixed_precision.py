# Mixed precision as training scripts write it: torch.autocast with
# bfloat16 around the forward pass, which ops come out in bfloat16 and which
# in float32, the values a bfloat16 matmul gives (bf16 operands, float32
# accumulation, one rounding), gradients back in float32, autocast as a
# decorator and nested off, and GradScaler's scaling, unscaling, skipped
# steps and scale updates.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "tpu"
torch.manual_seed(0)
x = torch.randn(4, 8, device=device)
lin = nn.Linear(8, 8).to(device)
with torch.autocast(device_type=device, dtype=torch.bfloat16):
    y = lin(x)
    print(y.dtype, torch.relu(y).dtype, F.gelu(y).dtype, F.softmax(y, -1).dtype, F.layer_norm(y, (8,)).dtype)
    print((y @ y.t()).dtype, torch.mm(x, x.t()).dtype, F.mse_loss(y, x).dtype,
          F.cross_entropy(y, torch.tensor([0, 1, 2, 3], device=device)).dtype)
    print(torch.cat([y, x]).dtype, (y + x).dtype, y.sum().dtype, torch.is_autocast_enabled(device),
          torch.get_autocast_dtype(device))
    q = x.view(1, 4, 8)
    print(F.scaled_dot_product_attention(q, q, q).dtype, nn.LayerNorm(8).to(device)(y).dtype, y.exp().dtype,
          y.float().dtype, torch.bmm(q, q.transpose(1, 2)).dtype, x.double().matmul(x.double().t()).dtype)
    print(F.conv1d(q, torch.randn(2, 4, 3, device=device)).dtype, torch.addmm(x, x, torch.eye(8, device=device)).dtype)
    with torch.autocast(device_type=device, enabled=False):
        print("nested off", (x @ x.t()).dtype, torch.is_autocast_enabled(device))
    print("back on", (x @ x.t()).dtype)
print(torch.is_autocast_enabled(device), (x @ x.t()).dtype)
print(y[0].detach().cpu())
print((x @ x.t()).to(torch.bfloat16)[0].cpu())
with torch.autocast(device, dtype=torch.bfloat16):
    print((x @ x.t())[0].cpu())
    print(F.softmax(lin(x), -1)[1].detach().cpu())
    print(F.layer_norm(lin(x), (8,))[2].detach().cpu())

model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
target = torch.tensor([0, 2, 1, 0], device=device)
for step in range(3):
    with torch.autocast(device_type=device, dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, target)
    opt.zero_grad()
    loss.backward()
    print(step, logits.dtype, loss.dtype, round(loss.item(), 4), model[0].weight.grad.dtype,
          round(model[0].weight.grad.abs().sum().item(), 3))
    opt.step()


@torch.autocast(device_type=device, dtype=torch.bfloat16)
def project(a, b):
    return a @ b


print(project(x, x.t()).dtype, torch.amp.autocast is torch.autocast)

scaler = torch.amp.GradScaler(device, init_scale=1024.0, growth_interval=2)
print(scaler.get_scale(), scaler.is_enabled(), scaler.state_dict())
w = torch.ones(3, device=device, requires_grad=True)
sgd = torch.optim.SGD([w], lr=0.5)
for step, factor in enumerate([1.0, 1.0, float("inf"), 1.0, 1.0]):
    sgd.zero_grad()
    loss = (w * factor).sum()
    scaled = scaler.scale(loss)
    scaled.backward()
    print(step, scaled.item(), w.grad.cpu().tolist())
    scaler.step(sgd)
    scaler.update()
    print("  after", w.detach().cpu().tolist(), scaler.get_scale(), scaler.state_dict()["_growth_tracker"])
sgd.zero_grad()
scaler.scale((w * 2).sum()).backward()
scaler.unscale_(sgd)
print("unscaled", w.grad.cpu().tolist())
try:
    scaler.unscale_(sgd)
except RuntimeError as e:
    print("RuntimeError:", e)
state = scaler.state_dict()
other = torch.amp.GradScaler(device)
other.load_state_dict(state)
print(other.get_scale(), other.get_growth_interval(), torch.amp.GradScaler(device, enabled=False).scale(loss) is loss)
