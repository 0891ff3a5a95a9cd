# random with fixed seeds, CPython's exact Mersenne Twister streams: random,
# randint, randrange, choice, choices with weights, shuffle, sample, uniform,
# gauss, normalvariate, getstate/setstate, and independent Random instances.
import random

random.seed(42)
print([random.random() for _ in range(3)])
print([random.randint(1, 6) for _ in range(10)], random.randrange(0, 100, 5), random.getrandbits(16))
data = list(range(10))
random.shuffle(data)
print(data, random.choice(["sgd", "adam", "adamw"]), random.sample(range(100), 5))
print(random.choices(["a", "b", "c"], weights=[0.7, 0.2, 0.1], k=8), random.choices(range(3), k=3))
print(round(random.uniform(1e-4, 1e-2), 10), round(random.gauss(0, 1), 12), round(random.normalvariate(5, 2), 12))
print(round(random.expovariate(1.5), 12), round(random.triangular(0, 1, 0.2), 12), round(random.betavariate(2, 3), 12))
state = random.getstate()
a = [random.random() for _ in range(2)]
random.setstate(state)
print(a == [random.random() for _ in range(2)])
random.seed("experiment-1")
print(random.randint(0, 10**6), random.random())
random.seed(0)
rng = random.Random(0)
print(random.random() == rng.random(), rng.random() == random.random())
gen = random.Random(1337)
idx = list(range(20))
gen.shuffle(idx)
train, val = idx[:16], idx[16:]
print(sorted(val), len(train), gen.randbytes(4).hex(), gen.sample("abcdefgh", 3))
for seed in (0, 1, 123):
    r = random.Random(seed)
    print(seed, r.random(), r.randint(0, 99), r.choice("xyz"))
lr_grid = [10 ** random.Random(7).uniform(-5, -2) for _ in range(1)]
print([f"{x:.3e}" for x in lr_grid], random.Random(5).binomialvariate(10, 0.5))
