# torch's further functions as a user reaches them: aliases, rounding of
# angles, rot90/take/take_along_dim, gcd/lcm, searchsorted/bucketize/isin,
# meshgrid and friends, combinatorics, block_diag, vander, unravel_index,
# trapezoid rules, windows, cross products, matrix powers, the scatter and
# copy forms, and the torch-level forms of nn ops.
import torch

device = "tpu"
a = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], device=device)
b = torch.tensor([[2.0, 2.0, -1.0], [0.5, 5.0, 1.0]], device=device)
print(torch.absolute(a).cpu(), torch.divide(a, b, rounding_mode="floor").cpu(), torch.multiply(a, b).cpu())
print(torch.subtract(a, b, alpha=2).cpu(), torch.negative(a).cpu(), torch.positive(a).cpu())
print(torch.greater(a, b).cpu(), torch.less_equal(a, b).cpu(), a.not_equal(b).cpu(), a.greater_equal(b).cpu())
c = a.clone()
c.subtract_(1).multiply_(2).divide_(4)
print(c.cpu(), torch.rsub(a, 10.0).cpu(), torch.rsub(a, b, alpha=3).cpu())
ang = torch.tensor([0.0, 90.0, 180.0, -45.0], device=device)
print(torch.deg2rad(ang).cpu(), torch.rad2deg(torch.deg2rad(ang)).cpu(), torch.deg2rad(torch.tensor([180])))
print(torch.sinc(torch.tensor([0.0, 0.5, 1.0, -1.5], device=device)).cpu(),
      torch.ldexp(torch.tensor([1.0, 3.0], device=device), torch.tensor([2, -1], device=device)).cpu())
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0], device=device), torch.tensor([0.5], device=device)).cpu())
nan = float("nan")
p = torch.tensor([1.0, nan, 3.0, nan], device=device)
q = torch.tensor([2.0, 1.0, nan, nan], device=device)
print(torch.fmax(p, q).cpu(), torch.fmin(p, q).cpu(), torch.maximum(p, q).cpu())
m = torch.tensor([12, 18, -7, 0, 9], device=device)
n = torch.tensor([8, 27, 21, 5, 0], device=device)
print(torch.gcd(m, n).cpu(), torch.lcm(m, n).cpu(), m.gcd(torch.tensor(6, device=device)).cpu())

grid = torch.arange(12, device=device).reshape(3, 4)
print(torch.rot90(grid).cpu(), torch.rot90(grid, 2).cpu(), grid.rot90(-1, [1, 0]).cpu())
print(torch.take(grid, torch.tensor([[0, 5], [11, 7]], device=device)).cpu(), grid.ravel().cpu())
order = grid.argsort(dim=1, descending=True)
print(torch.take_along_dim(grid, order, dim=1).cpu(), torch.take_along_dim(grid, torch.tensor([3, 0], device=device)).cpu())
print(torch.argwhere(grid % 5 == 0).cpu())

edges = torch.tensor([1.0, 3.0, 5.0, 7.0], device=device)
vals = torch.tensor([[0.0, 3.0, 6.0], [7.0, 8.0, 1.0]], device=device)
print(torch.searchsorted(edges, vals).cpu(), torch.searchsorted(edges, vals, right=True).cpu())
print(torch.bucketize(vals, edges).cpu(), torch.bucketize(vals, edges, right=True, out_int32=True).dtype)
print(torch.searchsorted(edges, 5.0).cpu(), torch.searchsorted(edges, torch.tensor([5.0], device=device), side="right").cpu())
rows = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], device=device)
print(torch.searchsorted(rows, torch.tensor([[2.5], [4.0]], device=device)).cpu())
print(torch.isin(grid, torch.tensor([1, 4, 9, 100], device=device)).cpu(),
      torch.isin(grid, torch.tensor([1, 4], device=device), invert=True).sum().item())

xs = torch.tensor([1, 2, 3], device=device)
ys = torch.tensor([4, 5], device=device)
gx, gy = torch.meshgrid(xs, ys, indexing="ij")
hx, hy = torch.meshgrid(xs, ys, indexing="xy")
print(gx.cpu(), gy.cpu(), hx.cpu(), hy.cpu())
print(torch.cartesian_prod(xs, ys).cpu())
print(torch.combinations(xs).cpu(), torch.combinations(xs, r=3).cpu(), torch.combinations(xs, 2, True).shape)
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5, 6, 7]]), torch.tensor(9.0)))
print(torch.broadcast_shapes((3, 1), (1, 4), (4,)), [t.shape for t in torch.broadcast_tensors(xs, ys.unsqueeze(1))])
print(torch.vander(torch.tensor([1, 2, 3]), N=4), torch.vander(torch.tensor([0.5, 2.0]), increasing=True))
print(torch.unravel_index(torch.tensor([0, 5, 11, 7]), (3, 4)), torch.unravel_index(torch.tensor(17), (2, 3, 4)))

yv = torch.tensor([1.0, 4.0, 9.0, 16.0], device=device)
xv = torch.tensor([0.0, 1.0, 3.0, 4.0], device=device)
print(torch.trapezoid(yv).item(), torch.trapezoid(yv, xv).item(), torch.trapezoid(yv, dx=0.5).item(),
      torch.trapz(yv, xv).item())
print(torch.cumulative_trapezoid(yv).cpu(), torch.cumulative_trapezoid(yv, xv).cpu())
print(torch.trapezoid(torch.arange(6.0, device=device).reshape(2, 3), dim=0).cpu())
print(torch.hann_window(6), torch.hann_window(5, periodic=False), torch.hamming_window(4))
print(torch.blackman_window(5), torch.bartlett_window(6), torch.bartlett_window(5, periodic=False))
print(torch.logspace(0, 2, 5), torch.logspace(0, 3, 4, base=2.0), torch.range(1, 4), torch.range(0, 1, 0.25))
print(torch.scalar_tensor(3), torch.scalar_tensor(2, dtype=torch.int64), torch.asarray([1, 2]).dtype)

u = torch.tensor([[1.0, 0.0, 0.0], [0.0, 2.0, 1.0]], device=device)
v = torch.tensor([[0.0, 1.0, 0.0], [1.0, 1.0, 3.0]], device=device)
print(torch.cross(u, v, dim=1).cpu(), u.cross(v, dim=-1).cpu())
mat = torch.tensor([[1.0, 1.0], [1.0, 0.0]], device=device)
print(torch.matrix_power(mat, 10).cpu(), mat.matrix_power(0).cpu(), torch.chain_matmul(mat, mat, mat).cpu())

base = torch.zeros(4, 3, device=device)
src = torch.arange(6.0, device=device).reshape(2, 3)
print(base.index_copy(0, torch.tensor([3, 1], device=device), src).cpu())
print(torch.index_put(base, (torch.tensor([0, 0, 2], device=device), torch.tensor([1, 1, 2], device=device)),
                      torch.tensor([1.0, 2.0, 5.0], device=device), accumulate=True).cpu())
print(base.index_put((torch.tensor([1, 3], device=device),), torch.tensor([7.0, 8.0, 9.0], device=device)).cpu())
idx = torch.tensor([0, 1, 0, 1, 2], device=device)
vals5 = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], device=device)
start = torch.tensor([10.0, 20.0, 30.0, 40.0], device=device)
print(start.scatter_reduce(0, idx, vals5, "sum").cpu(), start.scatter_reduce(0, idx, vals5, "mean").cpu(),
      start.scatter_reduce(0, idx, vals5, "mean", include_self=False).cpu())
print(torch.select_scatter(torch.zeros(2, 3), torch.ones(3), 0, 1), torch.slice_scatter(torch.zeros(4, 4), torch.ones(2, 4), start=1, end=3))
print(torch.diagonal_scatter(torch.zeros(3, 3), torch.tensor([1.0, 2.0]), 1))
print(torch.split_with_sizes(torch.arange(6), [1, 2, 3]), torch.narrow_copy(torch.arange(6), 0, 2, 3))
print(torch.dsplit(torch.arange(8).reshape(1, 2, 4), 2)[1], torch.unsafe_chunk(torch.arange(5), 2))
t = torch.arange(6.0).reshape(2, 3)
print(torch.t_copy(t), torch.permute_copy(t, (1, 0)).is_contiguous(), torch.select_copy(t, 1, 2),
      torch.slice_copy(t, 1, 1, 3), torch.expand_copy(torch.tensor([1.0, 2.0]), (2, 2)),
      torch.unsqueeze_copy(t, 0).shape, torch.diagonal_copy(t), torch.view_copy(t, (3, 2)).shape)

print(t.is_signed(), torch.tensor([1], dtype=torch.uint8).is_signed(), t.is_complex(), t.is_conj(),
      torch.is_nonzero(torch.tensor([0.5])), t.is_same_size(t.clone()), t.get_device(), t.conj() is t)
try:
    torch.is_nonzero(t)
except RuntimeError as e:
    print("RuntimeError:", e)

torch.manual_seed(0)
x = torch.randn(2, 3, 5, device=device)
w = torch.randn(4, 3, 3, device=device)
print(torch.conv1d(x, w, padding=1)[0, 0].cpu(), torch.layer_norm(x, [5])[1, 1].cpu())
print(torch.max_pool1d(x, 2)[0, 0].cpu(), torch.avg_pool1d(x, 3, 1)[1, 2].cpu())
print(torch.adaptive_avg_pool1d(x, 2)[1].cpu(), torch.group_norm(x, 3)[0, 1].cpu())
print(torch.dropout(x, 0.5, False).equal(x), torch.cosine_similarity(x[0], x[1]).cpu())
emb = torch.arange(12.0, device=device).reshape(4, 3)
print(torch.embedding(emb, torch.tensor([3, 0], device=device)).cpu())
print(torch.batch_norm(x, None, None, None, None, True, 0.1, 1e-5, False)[0, 0].cpu())
print(torch.get_num_threads() > 0, torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True)
torch.set_num_threads(1)
torch.set_float32_matmul_precision("high")
print(torch.are_deterministic_algorithms_enabled(), torch.get_num_threads(), torch.get_float32_matmul_precision(),
      torch.get_deterministic_debug_mode())
torch.set_deterministic_debug_mode("warn")
print(torch.is_deterministic_algorithms_warn_only_enabled(), torch.get_deterministic_debug_mode())
