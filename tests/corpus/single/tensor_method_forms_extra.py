# The Tensor-method and in-place forms of the newer functions, as code that
# chains methods writes them: x.absolute_(), x.divide_(y), x.index_put_(...),
# x.scatter_reduce_(...), x.deg2rad_(), x.gcd_(y), and the predicates.
import torch

device = "tpu"
x = torch.tensor([[-1.5, 2.0, -3.0], [4.0, -5.5, 6.0]], device=device)
y = torch.tensor([[2.0, 4.0, -1.0], [0.5, 2.0, 3.0]], device=device)
a = x.clone()
a.absolute_()
print(a.cpu(), x.absolute().cpu(), x.negative().cpu())
a.divide_(y).multiply_(2.0).subtract_(1.0, alpha=0.5)
print(a.cpu())
b = x.clone()
b.negative_()
print(b.cpu(), x.greater(y).cpu(), x.less_equal(0).cpu(), x.greater_equal(y).cpu(), x.not_equal(y).cpu())
c = x.clone()
c.greater_(0.0)
print(c.cpu(), x.clone().less_(y).cpu(), x.clone().not_equal_(2.0).cpu())
ang = torch.tensor([30.0, 45.0, 180.0], device=device)
ang.deg2rad_()
print(ang.cpu(), ang.clone().rad2deg_().cpu(), ang.sinc().cpu())
s = torch.tensor([0.0, 0.25, 0.5], device=device)
s.sinc_()
print(s.cpu(), torch.tensor([1.0, 2.0], device=device).ldexp_(torch.tensor([3, -1], device=device)).cpu())
m = torch.tensor([12, 18, 7], device=device)
m.gcd_(torch.tensor([8, 12, 21], device=device))
print(m.cpu(), torch.tensor([4, 6, 0], device=device).lcm_(torch.tensor([6, 4, 5], device=device)).cpu())
h = torch.tensor([-2.0, 0.0, 3.0], device=device)
h.heaviside_(torch.tensor([0.5], device=device))
print(h.cpu(), x.fmax(y).cpu(), x.fmin(y).cpu())
base = torch.zeros(3, 4, device=device)
base.index_put_((torch.tensor([0, 2], device=device), torch.tensor([1, 3], device=device)),
                torch.tensor([5.0, 7.0], device=device))
base.index_put_((torch.tensor([0, 0], device=device), torch.tensor([1, 1], device=device)),
                torch.tensor([1.0, 1.0], device=device), accumulate=True)
print(base.cpu())
r = torch.ones(4, device=device)
r.scatter_reduce_(0, torch.tensor([0, 0, 3, 1], device=device), torch.tensor([2.0, 3.0, 4.0, 5.0], device=device),
                  "sum")
print(r.cpu(), r.clone().index_copy_(0, torch.tensor([2], device=device), torch.tensor([9.0], device=device)).cpu())
g = torch.arange(12, device=device).reshape(3, 4)
print(g.rot90(1, [0, 1]).cpu(), g.ravel().take(torch.tensor([3, 7], device=device)).cpu())
print(g.take_along_dim(torch.tensor([[0], [3], [1]], device=device), 1).cpu(), g.argwhere()[:3].cpu())
print(g.split_with_sizes([1, 3], 1)[1].cpu(), g.narrow_copy(1, 1, 2).cpu(), g.unsafe_chunk(2, 1)[0].shape)
print(g.is_signed(), g.is_complex(), g.is_conj(), g.is_neg(), g.is_inference(), g.resolve_conj() is g,
      g.is_same_size(g.t()), torch.tensor([3], device=device).is_nonzero())
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], device=device)
print(w.matrix_power(3).cpu(), w.cross(w, dim=0).cpu() if w.shape[0] == 3 else "n/a",
      torch.tensor([[1.0, 0.0, 0.0]], device=device).cross(torch.tensor([[0.0, 1.0, 0.0]], device=device)).cpu())
print(x.hardshrink(2.0).cpu(), x.prelu(torch.tensor([0.1], device=device)).cpu())
print(x.slice_scatter(torch.zeros(2, 1, device=device), 1, 1, 2).cpu(),
      x.select_scatter(torch.ones(3, device=device), 0, 1).cpu())
print(torch.zeros(3, 3, device=device).diagonal_scatter(torch.tensor([1.0, 2.0, 3.0], device=device)).cpu())
