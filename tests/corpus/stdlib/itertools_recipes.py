# The itertools recipes training utilities copy: sliding windows over a
# token stream, grouper with fill, roundrobin across data sources,
# unique_everseen, flatten, powerset for ablations, nth and take, built on
# islice, deque, chain, cycle, zip_longest, combinations and tee.
import collections
import itertools as it


def sliding_window(iterable, n):
    iterator = iter(iterable)
    window = collections.deque(it.islice(iterator, n - 1), maxlen=n)
    for x in iterator:
        window.append(x)
        yield tuple(window)


def grouper(iterable, n, fillvalue=None):
    args = [iter(iterable)] * n
    return it.zip_longest(*args, fillvalue=fillvalue)


def roundrobin(*iterables):
    iterators = it.cycle(iter(x) for x in iterables)
    for num_active in range(len(iterables), 0, -1):
        iterators = it.cycle(it.islice(iterators, num_active))
        yield from map(next, iterators)


def unique_everseen(iterable, key=None):
    seen = set()
    for element in iterable:
        k = element if key is None else key(element)
        if k not in seen:
            seen.add(k)
            yield element


def powerset(iterable):
    s = list(iterable)
    return it.chain.from_iterable(it.combinations(s, r) for r in range(len(s) + 1))


def take(n, iterable):
    return list(it.islice(iterable, n))


def nth(iterable, n, default=None):
    return next(it.islice(iterable, n, None), default)


tokens = [5, 17, 3, 9, 11, 2]
print(list(sliding_window(tokens, 3)))
print([(w[:-1], w[-1]) for w in sliding_window(tokens, 4)])
print(list(grouper("ABCDEFG", 3, "x")))
print(list(roundrobin("ABC", "D", "EF")), list(roundrobin([1, 2, 3], [10], [20, 30])))
print(list(unique_everseen("AAAABBBCCDAABBB")), list(unique_everseen(["a", "B", "b", "A"], key=str.lower)))
print([list(c) for c in powerset(["dropout", "wd", "aug"])])
print(take(4, it.count(10, 5)), nth(iter(range(100)), 42), nth([], 3, "none"))
print(list(it.chain.from_iterable([[1, 2], [3], []])), list(map(sum, it.pairwise([1, 2, 4, 8]))))
a, b = it.tee(x * x for x in range(5))
print(list(a), sum(b), list(it.islice(it.cycle("ab"), 5)), list(it.accumulate(tokens, min)))
print(sum(1 for _ in it.filterfalse(str.isdigit, "a1b2c3d")), list(it.starmap(divmod, [(7, 2), (9, 4)])))
