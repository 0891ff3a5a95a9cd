# Seeded randomness in data handling: a reproducible train/val/test split,
# k-fold indices, a weighted sampler with random.choices, reservoir sampling
# over a stream, random crops as offsets, and per-worker Random instances
# seeded from a base seed; all values come from CPython's exact stream.
import random

N = 20
rng = random.Random(42)
idx = list(range(N))
rng.shuffle(idx)
n_train, n_val = int(0.7 * N), int(0.15 * N)
train, val, test = idx[:n_train], idx[n_train:n_train + n_val], idx[n_train + n_val:]
print(sorted(train), sorted(val), sorted(test))
folds = [idx[i::4] for i in range(4)]
for k, fold in enumerate(folds):
    rest = sorted(set(idx) - set(fold))
    print(f"fold {k}: val {sorted(fold)} train size {len(rest)}")
labels = [0] * 15 + [1] * 4 + [2]
counts = {c: labels.count(c) for c in set(labels)}
weights = [1 / counts[l] for l in labels]
drawn = random.Random(0).choices(range(N), weights=weights, k=12)
print(drawn, {c: sum(labels[i] == c for i in drawn) for c in sorted(counts)})


def reservoir(stream, k, r):
    sample = []
    for i, item in enumerate(stream):
        if i < k:
            sample.append(item)
        else:
            j = r.randint(0, i)
            if j < k:
                sample[j] = item
    return sample


print(reservoir(range(1000), 5, random.Random(3)))
crop = random.Random(9)
print([(crop.randint(0, 32 - 24), crop.randint(0, 32 - 24)) for _ in range(4)], crop.random() < 0.5)
base_seed = 1234
for worker_id in range(3):
    wr = random.Random(base_seed + worker_id)
    print(f"worker {worker_id}:", [wr.randrange(100) for _ in range(5)], round(wr.gauss(0, 1), 10))
random.seed(2024)
augment = [random.choice(["flip", "rotate", "none"]) for _ in range(6)]
print(augment, round(random.uniform(0.8, 1.2), 12), random.sample(["a", "b", "c", "d"], k=4))
print(random.Random(1).random() == random.Random(1).random(), random.Random(1).random() != random.Random(2).random())
