# User objects with __eq__ and __hash__ as dict keys and set members, list
# equality and membership of custom objects, the unhashable class when only
# __eq__ is defined, __lt__ for sorting, and __repr__/__str__/__bool__/__len__.
class Token:
    def __init__(self, text, kind):
        self.text, self.kind = text, kind

    def __eq__(self, other):
        if not isinstance(other, Token):
            return NotImplemented
        return (self.text, self.kind) == (other.text, other.kind)

    def __hash__(self):
        return hash((self.text, self.kind))

    def __lt__(self, other):
        return (self.kind, self.text) < (other.kind, other.text)

    def __repr__(self):
        return f"Token({self.text!r}, {self.kind})"

    def __str__(self):
        return self.text


class OnlyEq:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v


class Batch:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __bool__(self):
        return any(self.items)


a, b, c = Token("cat", 1), Token("cat", 1), Token("dog", 1)
print(a == b, a is b, a != c, a == "cat", hash(a) == hash(b))
counts = {a: 1}
counts[b] = counts.get(b, 0) + 1
counts[c] = 5
print(counts, len(counts))
uniq = {a, b, c, Token("cat", 2)}
print(len(uniq), sorted(uniq), a in uniq, Token("dog", 1) in uniq)
print([a, c] == [b, Token("dog", 1)], [a, c] == [c, a], a in [c, b], [a, c].index(Token("dog", 1)), [a, b, c].count(a))
print(str(a), f"{a}", f"{a!r}", [a], {"k": a})
print(sorted([Token("z", 0), Token("a", 1), Token("m", 0)]), max(uniq), min([c, a]))
print(OnlyEq(1) == OnlyEq(1), OnlyEq.__hash__ is None)
try:
    {OnlyEq(1): 1}
except TypeError as e:
    print(type(e).__name__, e)
print(len(Batch([0, 0])), bool(Batch([0, 0])), bool(Batch([0, 1])), "empty" if not Batch([]) else "non-empty")


class Plain:
    pass


p, q = Plain(), Plain()
print(p == p, p == q, len({p, q, p}), {p: 1}[p])
print(1 == 1.0, hash(1) == hash(1.0), {1: "int", 1.0: "float", True: "bool"}, (1, 2) == (1, 2), [1] == (1,))
key = frozenset({1, 2})
print({key: "pair"}[frozenset({2, 1})], sorted({3, 1, 2}), {(0, 1): "edge"}[(0, 1)])
