# The string module: Template substitution for run names and file paths
# (substitute vs safe_substitute, KeyError), the character constants,
# capwords, and string.Formatter parsing and formatting.
import string

t = string.Template("runs/$model/lr${lr}_bs$bs/$$final")
print(t.substitute(model="gpt2", lr=3e-4, bs=64))
print(t.safe_substitute(model="gpt2"))
print(t.substitute({"model": "a", "lr": 1, "bs": 2}, bs=99))
try:
    t.substitute(model="x")
except KeyError as e:
    print(type(e).__name__, e)
try:
    string.Template("$").substitute()
except ValueError as e:
    print(type(e).__name__, e)
print(t.get_identifiers(), t.is_valid(), t.template)
print(string.ascii_letters)
print(string.ascii_lowercase, string.ascii_uppercase, string.digits, string.hexdigits, string.octdigits)
print(repr(string.punctuation), repr(string.whitespace), len(string.printable))
vocab = sorted(set(string.ascii_lowercase + string.digits + " "))
stoi = {c: i for i, c in enumerate(vocab)}
print(len(vocab), [stoi[c] for c in "hi 42"], "".join(vocab[i] for i in [7, 8, 0]))
print(string.capwords("hello   wide  world"), string.capwords("a-b c-d", "-"))
f = string.Formatter()
print(f.format("{0}-{name}-{1:>4}", "a", 7, name="n"))
print(list(f.parse("step {step:05d} loss {loss:.3f} {{literal}} {0!r}")))
print(f.vformat("{x} and {y}", (), {"x": 1, "y": 2}))


class DefaultFormatter(string.Formatter):
    def get_value(self, key, args, kwargs):
        return kwargs.get(key, f"<{key}?>") if isinstance(key, str) else super().get_value(key, args, kwargs)


print(DefaultFormatter().format("{model} {missing} {0}", "pos", model="m"))


class Pct(string.Template):
    delimiter = "%"


print(Pct("%name is %{n}x").substitute(name="speed", n=3))
