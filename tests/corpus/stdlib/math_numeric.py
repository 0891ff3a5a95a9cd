# math as learning-rate schedules, metrics and initializers use it: isclose,
# inf and nan checks, floor/ceil/trunc, log/exp/sqrt, cos, prod, comb, perm,
# gcd/lcm, fsum against sum, copysign, and the domain errors.
import math

print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(0.1 + 0.2 == 0.3, math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.001, rel_tol=1e-2), math.isclose(0.0, 1e-10, abs_tol=1e-9))
print(math.isinf(float("inf")), math.isnan(float("nan")), math.isfinite(1e308), float("nan") == float("nan"))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), round(2.5), round(3.5), round(-0.5), round(2.675, 2))
print(math.floor(7 / 2), math.ceil(50000 / 64), -(-50000 // 64))
print(math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(0.001), math.log1p(1e-10))
print(math.exp(0), math.exp(1), math.expm1(1e-10), math.sqrt(2), math.isqrt(99), math.pow(2, 0.5))
print(-math.log(1 / 50257), math.exp(-0.5 * 2.0))
for it in [0, 500, 1000, 1500, 2000]:
    warm, total, lo, hi = 500, 2000, 6e-5, 6e-4
    if it < warm:
        lr = hi * (it + 1) / warm
    else:
        ratio = (it - warm) / (total - warm)
        lr = lo + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (hi - lo)
    print(f"iter {it}: lr {lr:.6e}")
print(math.prod([2, 3, 4]), math.prod([]), math.prod([0.5, 4], start=2))
print(math.comb(10, 3), math.perm(5, 2), math.factorial(10), math.gcd(48, 180), math.lcm(4, 6), math.gcd(0, 0))
vals = [0.1] * 10
print(sum(vals), math.fsum(vals), sum([1e100, 1.0, -1e100]), math.fsum([1e100, 1.0, -1e100]))
print(math.copysign(3, -0.0), math.fabs(-2), math.hypot(3, 4), math.dist((0, 0), (1, 1)), math.degrees(math.pi))
print(math.sin(0), round(math.sin(math.pi / 6), 12), math.atan2(1, 1), math.tanh(0.5), math.erf(1.0))
print(math.modf(3.75), math.frexp(8.0), math.ldexp(0.5, 4), math.fmod(7, -3), 7 % -3, divmod(-7, 2))
print(math.inf > 1e308, math.inf - math.inf, 1e308 * 10, -1e308 * 10, math.inf * 0)
for bad in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.exp(1000), lambda: math.factorial(-1)]:
    try:
        bad()
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
