# Inspecting tensors while debugging: print options (precision, sci_mode,
# threshold, edgeitems, linewidth), summarised large tensors, bool, int, 0-d
# and empty tensors, and restoring the defaults.
import torch

device = "tpu"
torch.manual_seed(6)

x = torch.randn(3, 4, device=device).cpu()
print(x)
torch.set_printoptions(precision=2)
print(x)
torch.set_printoptions(precision=6)
print(x[0])
torch.set_printoptions(sci_mode=True)
print(x[0])
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.0, 12345.0]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-5, 1.0, 12345.0]))

big = torch.arange(2000, device=device).reshape(100, 20).cpu()
print(big)
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(big.float())
torch.set_printoptions(profile="default")
torch.set_printoptions(linewidth=40)
print(torch.arange(30.0) / 7)
torch.set_printoptions(profile="default")

print(torch.tensor(3.5), torch.tensor(7), torch.tensor(True), torch.tensor(-0.25, dtype=torch.float64))
print(torch.tensor([True, False, True]), torch.tensor([[1, -2], [300, 4]], dtype=torch.int32))
print(torch.tensor([]), torch.zeros(0, 3), torch.tensor([], dtype=torch.int64), torch.zeros(2, 0, dtype=torch.bool))
print(torch.ones(2, 2, dtype=torch.float64) / 3, torch.tensor([1.0, 2.0], requires_grad=True))
print(repr(torch.tensor([0.5])), str(torch.tensor([0.5])), f"{torch.tensor(0.5).item():.3f}")
print(f"loss {torch.tensor(1.23456):.2f}", torch.tensor([1.0, 2.0]).tolist())
print(torch.arange(6).reshape(1, 2, 3), torch.full((2, 2), float("nan")))
print(x.shape, x.size(), x.size(1), x.dtype, x.device, x.ndim, x.numel())
