# itertools for data loading: chain of shards, islice for taking batches,
# batched, product over a hyperparameter grid, permutations and combinations,
# and an infinite data iterator with cycle + islice.
import itertools as it

shards = [[1, 2, 3], [4, 5], [6, 7, 8, 9]]
print(list(it.chain(*shards)), list(it.chain.from_iterable(shards)))
stream = iter(range(10))
print(list(it.islice(stream, 3)), list(it.islice(stream, 3)), list(stream))
print(list(it.islice("abcdefg", 1, 6, 2)))


def batches(iterable, n):
    source = iter(iterable)
    while chunk := list(it.islice(source, n)):
        yield chunk


print(list(batches(range(7), 3)))
print(list(it.batched(range(7), 3)))
grid = {"lr": [0.1, 0.01], "bs": [32, 64], "wd": [0.0]}
for values in it.product(*grid.values()):
    print(dict(zip(grid, values)))
print(list(it.product("ab", repeat=2)))
print(list(it.permutations([1, 2, 3], 2)))
print(list(it.combinations("abcd", 2)), len(list(it.combinations(range(10), 3))))
print(list(it.combinations_with_replacement("xy", 2)))
epochs_of_data = it.cycle(["b0", "b1", "b2"])
print(list(it.islice(epochs_of_data, 7)))
print(list(it.repeat("pad", 3)), list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])))
print(list(it.takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(it.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(it.filterfalse(lambda x: x % 2, range(8))))
