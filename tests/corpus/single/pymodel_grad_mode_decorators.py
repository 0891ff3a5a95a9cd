# Every grad-mode form PyTorch offers: decorators called and bare, inference_mode, set_grad_enabled, autograd submodules.
import torch
import torch.nn as nn

device = "tpu"
torch.manual_seed(6)
model = nn.Linear(4, 2).to(device)
x = torch.randn(3, 4, device=device)


@torch.no_grad()
def evaluate(m, data):
    return m(data)


@torch.no_grad
def evaluate_bare(m, data):
    return m(data)


@torch.inference_mode()
def predict(m, data):
    return m(data).argmax(dim=1)


@torch.enable_grad()
def needs_grad(m, data):
    return m(data).sum()


print(evaluate(model, x).requires_grad, evaluate_bare(model, x).requires_grad, evaluate.__name__)
print(predict(model, x).cpu().tolist(), predict.__name__)
with torch.no_grad():
    print(needs_grad(model, x).requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(False):
        print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(model(x).requires_grad)
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
print(model(x).requires_grad)
for train in (True, False):
    with torch.set_grad_enabled(train):
        print(train, model(x).requires_grad)
with torch.autograd.no_grad():
    print(torch.is_grad_enabled())
with torch.autograd.grad_mode.no_grad():
    print(torch.is_grad_enabled())
with torch.autograd.set_detect_anomaly(True):
    print(torch.is_anomaly_enabled())
    loss = model(x).pow(2).mean()
    loss.backward()
print(torch.is_anomaly_enabled(), model.weight.grad.shape)
try:
    with torch.no_grad():
        raise RuntimeError("stop")
except RuntimeError as e:
    print(e, torch.is_grad_enabled())
