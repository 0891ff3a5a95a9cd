# The random module with CPython's exact streams. Floats are printed both as
# repr and as the exact integer random() * 2**53, so that a difference in the
# last bit fails the comparison.
import random

random.seed(42)
x = random.random()
print(x, int(x * 2**53))
print([int(random.random() * 2**53) for _ in range(3)])
print(random.getrandbits(1), random.getrandbits(8), random.getrandbits(32), random.getrandbits(33), random.getrandbits(63))
print([random.randint(1, 6) for _ in range(12)])
print([random.randrange(10) for _ in range(8)], random.randrange(5, 50, 5), random.randrange(20, 0, -3))
print(random.randrange(-10, -2), random.randint(-(2**40), 2**40), random.getrandbits(0))

random.seed(0)
deck = list(range(20))
random.shuffle(deck)
print(deck)
words = ["tpu", "gpu", "cpu", "ici", "hbm"]
random.shuffle(words)
print(words, random.choice(words), random.choice("abcdef"), random.choice(range(100, 200)))
print(random.sample(range(100), 5), random.sample(words, 3), random.sample(range(10**6), 4))
print(random.sample(list(range(40)), 12))
print(random.choices(words, k=4), random.choices(words, weights=[5, 1, 1, 0, 3], k=6))
print(random.choices(range(3), cum_weights=[1, 1.5, 4], k=5))

u = random.uniform(2.0, 5.0)
g = random.gauss(0.0, 1.0)
g2 = random.gauss(10, 2)
n = random.normalvariate(1.0, 0.5)
print(round(u, 12), round(g, 12), round(g2, 12), round(n, 12))

for seed in [1, 2**32, 2**33 + 7, -5, 0, 123456789, True, 2.5, 7.0, -0.125]:
    random.seed(seed)
    print(seed, int(random.random() * 2**53), random.randint(0, 1000))

r = random.Random(7)
s = random.Random(7)
print(r.random() == s.random(), r.randint(1, 100), [s.randint(1, 100)])
random.seed(7)
print(random.random() == random.Random(7).random())
r.seed(3)
print(int(r.random() * 2**53), type(r).__name__, isinstance(r, random.Random))
a = random.Random()
b = random.Random()
print(a.random() != b.random(), 0.0 <= a.random() < 1.0)

for call in [
    lambda: random.choice([]),
    lambda: random.randint(5, 1),
    lambda: random.randrange(0),
    lambda: random.randrange(1, 10, 0),
    lambda: random.randrange(1.5),
    lambda: random.sample([1, 2], 3),
    lambda: random.sample({1, 2}, 1),
    lambda: random.getrandbits(-1),
    lambda: random.shuffle((1, 2, 3)),
    lambda: random.seed([1]),
    lambda: random.randint(1),
    lambda: random.choices([1, 2], weights=[1], k=1),
]:
    try:
        call()
    except (ValueError, TypeError, IndexError) as e:
        print(type(e).__name__, e)
