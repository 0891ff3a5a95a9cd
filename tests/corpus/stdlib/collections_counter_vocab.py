# Counter and defaultdict the way tokenizer and metric code uses them: building
# a vocabulary, most_common, update/subtract, Counter arithmetic, grouping
# samples by label, and nested defaultdicts.
from collections import Counter, defaultdict

text = "the cat sat on the mat the cat ate the rat".split()
counts = Counter(text)
print(counts.most_common(3))
print(counts["the"], counts["dog"], len(counts), counts.total())
vocab = {w: i for i, (w, _) in enumerate(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))}
print(vocab)
counts.update(["dog", "dog", "cat"])
counts.subtract({"the": 2})
print(counts.most_common(4))
a = Counter(a=3, b=1)
b = Counter(a=1, b=2, c=5)
print(a + b, a - b, a & b, a | b)
print(sorted(Counter("mississippi").elements()))
print(Counter({"x": 0, "y": -1, "z": 2}) + Counter())

by_label = defaultdict(list)
for i, label in enumerate([1, 0, 1, 2, 0, 1]):
    by_label[label].append(i)
print(dict(by_label), by_label[5], sorted(by_label))
stats = defaultdict(lambda: defaultdict(float))
for split, metric, value in [("train", "loss", 0.5), ("val", "loss", 0.7), ("train", "loss", 0.25), ("val", "acc", 0.8)]:
    stats[split][metric] += value
print({k: dict(v) for k, v in stats.items()})
counter = defaultdict(int)
for ch in "hello world":
    counter[ch] += 1
print(sorted(counter.items()))
print(defaultdict(int, {"a": 1}).default_factory, repr(defaultdict(list)))
