# Lists, dicts, sets and tuples the way training scripts use them.
history = {"loss": [], "acc": []}
for step in range(5):
    history["loss"].append(round(1.0 / (step + 1), 3))
    history.setdefault("steps", []).append(step)
history["acc"] += [0.5, 0.75]
print(history)
print(sorted(history), list(history.items())[0], len(history), "acc" in history)
counts = {}
for ch in "tensor cores":
    counts[ch] = counts.get(ch, 0) + 1
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
a = [5, 3, 8, 1]
b = a
b.sort()
print(a, a[::-1], a[1:3], a[-2:], a[:-1], a.index(8), a.count(3))
a.insert(0, 9)
a.remove(3)
print(a, a.pop(), a.pop(0), a)
nums = list(range(10))
nums[2:5] = [0]
del nums[-1]
print(nums, nums * 2 == nums + nums, min(nums), max(nums), sum(nums))
s = {3, 1, 2}
s.add(2)
s.discard(7)
print(sorted(s), sorted(s & {1, 5}), sorted(s | {9}), sorted(s - {1}), sorted(s ^ {1, 7}), sorted(s.intersection({1, 5})), len(s))
t = (1, "a", 2.5)
x, y, z = t
first, *middle, last = [1, 2, 3, 4, 5]
print(x, y, z, first, middle, last, t.index("a"), (1, 2) < (1, 3), [1, 2] == [1, 2])
matrix = [[i * 3 + j for j in range(3)] for i in range(3)]
print(matrix, [row[i] for i, row in enumerate(matrix)], list(zip(*matrix)))
print({k: v for k, v in zip("abc", range(3)) if v != 1}, {x % 3 for x in range(10)})
print(any(v > 7 for v in nums), all(isinstance(v, int) for v in nums), list(map(str, [1, 2])), list(filter(None, [0, 1, 2])))
print(dict(a=1, b=2), dict([("x", 1)]), list(reversed([1, 2, 3])), tuple("ab"), set())
