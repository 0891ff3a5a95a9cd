# groupby over sorted records, accumulate (running sum, max, custom function),
# zip_longest padding, count as a step counter, tee for lookahead, starmap,
# and pairwise for consecutive differences.
import itertools as it
import operator

logs = [("train", 0.9), ("train", 0.7), ("val", 0.8), ("train", 0.5), ("val", 0.6)]
for split, group in it.groupby(sorted(logs, key=lambda r: r[0]), key=lambda r: r[0]):
    vals = [v for _, v in group]
    print(split, vals, round(sum(vals) / len(vals), 4))
print([(k, len(list(g))) for k, g in it.groupby("aaabccdddd")])
print(list(it.accumulate([1, 2, 3, 4, 5])))
print(list(it.accumulate([3, 1, 4, 1, 5, 9, 2], max)))
print(list(it.accumulate([1, 2, 3, 4], operator.mul, initial=10)))
print(list(it.accumulate([0.5, 0.25, 0.125], lambda a, b: 0.9 * a + 0.1 * b)))
print(list(it.zip_longest("abc", [1, 2], fillvalue="-")))
print(list(zip("abc", [1, 2])))
try:
    list(zip("abc", [1, 2], strict=True))
except ValueError as e:
    print(type(e).__name__, e)
step = it.count(start=100, step=10)
print(next(step), next(step), next(step))
print(list(zip(it.count(), "xyz")))
a, b = it.tee(iter([1, 2, 3, 4]))
next(b)
print(list(zip(a, b)))
print(list(it.starmap(pow, [(2, 3), (3, 2), (10, 0)])))
print(list(it.starmap(lambda lr, s: lr * s, zip([1.0, 0.5], [0.1, 0.2]))))
print([b - a for a, b in it.pairwise([1, 4, 9, 16, 25])])
