# statistics for evaluation summaries: mean, fmean, median (odd and even),
# median_low/high, mode and multimode, stdev/pstdev and variance, quantiles,
# harmonic/geometric means, correlation, linear_regression, and the errors.
import statistics as st

accs = [0.912, 0.905, 0.918, 0.899, 0.921]
print(st.mean(accs), st.fmean(accs), st.median(accs), round(st.stdev(accs), 12), round(st.pstdev(accs), 12))
print(st.mean([1, 2, 3, 4]), st.median([1, 3, 2, 4]), st.median_low([1, 3, 2, 4]), st.median_high([1, 3, 2, 4]))
print(st.variance([2, 4, 4, 4, 5, 5, 7, 9]), st.pvariance([2, 4, 4, 4, 5, 5, 7, 9]), st.stdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]))
print(st.mode([1, 1, 2, 3, 3, 3]), st.mode("aabbbc"), st.multimode("aabbcc"), st.multimode([]))
print(st.quantiles(range(1, 101), n=4), st.quantiles([1, 2, 3, 4, 5, 6, 7], n=10, method="inclusive"))
print(st.harmonic_mean([40, 60]), round(st.geometric_mean([1, 10, 100]), 12))
x = [1, 2, 3, 4, 5]
y = [2.1, 3.9, 6.2, 7.8, 10.1]
print(round(st.correlation(x, y), 12), st.linear_regression(x, y))
print(st.mean([1, 2, 2]), type(st.mean([1, 2])).__name__, st.mean([0.5, 1]), st.median([5]))
from fractions import Fraction
print(st.mean([Fraction(1, 3), Fraction(2, 3)]), st.fmean([1, 2, 3], weights=[3, 1, 1]))
for bad in [lambda: st.mean([]), lambda: st.stdev([1.0]), lambda: st.median([])]:
    try:
        bad()
    except st.StatisticsError as e:
        print(type(e).__name__, e)
nd = st.NormalDist(mu=0.5, sigma=0.1)
print(nd, round(nd.cdf(0.6), 12), round(nd.inv_cdf(0.975), 12), nd.mean, nd.stdev)
