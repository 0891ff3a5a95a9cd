# A tour of elementwise maths used in feature engineering and numerics: rounding
# family, fmod vs remainder, hypot/atan2, hyperbolic functions, logs and exps,
# logaddexp, NaN handling with nan_to_num, nansum and nanmean.
import torch

device = "tpu"

x = torch.tensor([-2.7, -0.5, 0.0, 0.5, 1.5, 3.2], device=device)
print(torch.sign(x).tolist(), x.sgn().tolist())
print(torch.trunc(x).tolist(), torch.frac(x).tolist())
print(torch.fix(x).tolist(), x.floor().tolist(), x.ceil().tolist(), x.round().tolist())

a = torch.tensor([-7.0, -3.0, 3.0, 7.0], device=device)
print("fmod:", torch.fmod(a, 3).tolist(), "remainder:", torch.remainder(a, 3).tolist())
print(torch.fmod(a, -3).tolist(), (a % -3).tolist())
ints = torch.tensor([-7, 7], device=device)
print(torch.fmod(ints, 3).tolist(), torch.remainder(ints, 3).tolist(), (ints // 3).tolist())

px = torch.tensor([3.0, 5.0, -1.0], device=device)
py = torch.tensor([4.0, 12.0, -1.0], device=device)
print(torch.hypot(px, py).tolist())
print([round(v, 5) for v in torch.atan2(py, px).tolist()])
print(torch.lerp(px, py, 0.25).tolist(), torch.lerp(px, py, torch.tensor([0.0, 0.5, 1.0], device=device)).tolist())

t = torch.tensor([0.0, 0.5, 1.0, 2.0], device=device)
for name in ["sinh", "cosh", "tanh", "asinh", "atan", "exp2", "expm1", "log1p", "sigmoid"]:
    print(name, [round(v, 5) for v in getattr(torch, name)(t).tolist()])
pos = torch.tensor([0.5, 1.0, 8.0, 100.0], device=device)
for name in ["log2", "log10", "acosh", "rsqrt", "reciprocal"]:
    print(name, [round(v, 5) for v in getattr(torch, name)(pos).tolist()])
print([round(v, 5) for v in torch.asin(torch.tensor([0.0, 0.5, 1.0], device=device)).tolist()])
print([round(v, 5) for v in torch.acos(torch.tensor([0.0, 0.5, 1.0], device=device)).tolist()])
print([round(v, 5) for v in torch.atanh(torch.tensor([0.0, 0.5, -0.5], device=device)).tolist()])
print([round(v, 5) for v in torch.tan(torch.tensor([0.0, 0.5, 1.0], device=device)).tolist()])
print([round(v, 4) for v in torch.erfinv(torch.tensor([0.0, 0.5, -0.9], device=device)).tolist()])
print([round(v, 4) for v in torch.erfc(torch.tensor([0.0, 0.5, 2.0], device=device)).tolist()])

l1 = torch.tensor([0.0, 100.0, -100.0], device=device)
l2 = torch.tensor([0.0, 100.0, 5.0], device=device)
print(torch.logaddexp(l1, l2).tolist(), torch.logaddexp2(l1, l2).tolist())
print(torch.xlogy(torch.tensor([0.0, 2.0], device=device), torch.tensor([0.0, 3.0], device=device)).tolist())

bad = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 2.0], device=device)
print(torch.nan_to_num(bad).tolist()[:2], torch.nan_to_num(bad, nan=0.0, posinf=9.0, neginf=-9.0).tolist())
print(torch.nansum(bad[:2]).item(), torch.nanmean(bad[:2]).item(), bad[:2].nansum().item())
m = torch.tensor([[1.0, float("nan")], [3.0, 4.0]], device=device)
print(torch.nanmean(m, dim=1).tolist(), m.nansum(dim=0).tolist())
print(torch.isnan(bad).tolist(), torch.isinf(bad).tolist(), torch.isposinf(bad).tolist(), torch.isneginf(bad).tolist())
print(torch.isfinite(bad).tolist(), torch.isreal(bad).all().item())
print(torch.square(x).tolist()[:2], torch.copysign(px, -1.0).tolist(), torch.signbit(x).tolist())
print(torch.float_power(torch.tensor([2, 3], device=device), 2).dtype, torch.true_divide(ints, 2).tolist())
