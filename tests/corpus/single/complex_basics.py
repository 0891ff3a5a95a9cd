# Complex tensors' basics: view_as_complex and view_as_real (sharing their
# data), polar, complex, tensors of Python complex numbers, arithmetic with
# complex, real tensors and numbers, abs, angle, conj, exp, reductions,
# indexing, views and printing, and gradients through them.
import torch

device = "tpu"

x = torch.arange(8.0).reshape(2, 2, 2)
c = torch.view_as_complex(x)
print(c)
print(c.dtype, c.shape, c.is_complex(), torch.is_complex(c), torch.is_complex(x), c.ndim)
f = torch.polar(torch.ones(3), torch.tensor([0.0, 1.0, 2.0]))
print(f)
print(f.real, f.imag)
print(f.abs(), f.angle())
print(c * 2, c + 1)
print(c - c.conj(), c / (1 + 1j))
print(torch.view_as_real(c * c))
z = torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([-1.0, 0.5]))
print(z, z * z.conj())
print(c[0], c[:, 1])
print(c.reshape(4), c.view(4, 1).shape, c.unsqueeze(0).shape, c.flatten())
print(c.transpose(0, 1), c.permute(1, 0).shape)
w = torch.tensor([1 + 2j, 3 - 1j])
print(w, w.dtype)
print(torch.zeros(2, dtype=torch.complex64), torch.ones(2, 1, dtype=torch.cfloat))
print(c.sum(), c.mean(), c.sum(0))
print(c.tolist(), w[1].item())
print(torch.complex64, torch.cfloat, torch.cdouble, torch.complex128)
print(torch.view_as_real(f).shape, f.dtype)
print(torch.polar(torch.tensor([2.0]), torch.tensor([0.5])).exp())
r = torch.view_as_real(c)
r[0, 0, 1] = 10.0
print(c[0, 0])
c[1, 1] = 5 - 5j
print(x[1, 1])
print(torch.complex(torch.tensor([[1.5, -2.25], [1e-3, 4.0]]), torch.zeros(2, 2)) * (1 - 2j))
torch.manual_seed(0)
a = torch.randn(3, 4, device=device, requires_grad=True)
theta = torch.linspace(0.0, 1.0, 3, device=device).unsqueeze(1)
rot = torch.view_as_complex(a.reshape(3, 2, 2)) * torch.polar(torch.ones(3, 1, device=device), theta)
print(rot.abs().sum().item() > 0, rot.shape, rot.cpu().detach())
loss = (torch.view_as_real(rot) ** 2).sum() + torch.view_as_real(rot)[..., 0].sum()
loss.backward()
print(a.grad.cpu())
for bad in (lambda: torch.view_as_complex(torch.zeros(3)),
            lambda: torch.view_as_complex(torch.zeros(2, 2).t()),
            lambda: torch.view_as_real(torch.zeros(2))):
    try:
        bad()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__ + ":", e)
t = torch.tensor([0.0, 1.0, 2.0])
print(torch.exp(1j * t), t * (2 - 1j), (t + 1j).dtype, 1j - t)
