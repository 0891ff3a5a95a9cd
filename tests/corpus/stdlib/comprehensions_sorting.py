# Comprehensions and sorting in data preparation: list/dict/set comprehensions
# with conditions and nesting, conditional expressions, enumerate/zip, dict
# inversion, flattening, sorted stability with keys and reverse, sort in place,
# and ordering of mixed types raising TypeError.
samples = [("img3.png", 2), ("img1.png", 0), ("img2.png", 2), ("img4.png", 1), ("img5.png", 0)]
labels = [l for _, l in samples]
print([f for f, l in samples if l == 2], [l * 10 if l else -1 for l in labels])
print({f: l for f, l in samples if l > 0}, sorted({l for l in labels}), {l: labels.count(l) for l in sorted(set(labels))})
classes = ["cat", "dog", "bird"]
idx = {c: i for i, c in enumerate(classes)}
inv = {i: c for c, i in idx.items()}
print(idx, inv, [inv[l] for l in labels])
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)], [x for row in matrix for x in row if x % 2])
print([(i, j) for i in range(3) for j in range(i)], [sum(r) for r in matrix], list(zip(*matrix)))
print(sorted(samples, key=lambda s: s[1]))
print(sorted(samples, key=lambda s: s[1], reverse=True))
print(sorted(samples, key=lambda s: (-s[1], s[0])))
records = [{"n": "b", "s": 2}, {"n": "a", "s": 1}, {"n": "c", "s": 2}, {"n": "d", "s": 1}]
records.sort(key=lambda r: r["s"])
print([r["n"] for r in records])
records.sort(key=lambda r: r["n"], reverse=True)
print([r["n"] for r in records])
print(sorted([3, 1, 2], reverse=True), sorted("bAc"), sorted("bAc", key=str.lower), sorted([(1, "b"), (1, "a"), (0, "z")]))
print(sorted({"b": 1, "a": 2}), sorted({"b": 1, "a": 2}.items(), key=lambda kv: kv[1]), list(reversed([1, 2, 3])))
print(sorted([0.5, -1, 3, 2.5], key=abs), sorted(["10", "9", "100"]), sorted(["10", "9", "100"], key=int))
try:
    sorted([1, "a", 2])
except TypeError as e:
    print(type(e).__name__, e)
nums = list(range(10))
print(nums[::2], nums[1::3], nums[-3:], nums[::-1][:3], nums[2:8:2], nums[100:], nums[-100:2])
print({x % 3 for x in nums}, {(x, x % 2) for x in range(3)} == {(0, 0), (1, 1), (2, 0)}, sum(x for x in nums if x > 5))
print(dict(zip(classes, range(3))), list(enumerate(classes, start=1)), max(enumerate(labels), key=lambda p: p[1]))
print([c.upper() for c in "abc"], {k: v for k, v in [("a", 1), ("a", 2)]}, [i for i in range(3)] == list(range(3)))
