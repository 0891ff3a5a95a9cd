# str methods used in text preprocessing: partition/rpartition, zfill,
# center/ljust/rjust, expandtabs, casefold, swapcase, title, capitalize,
# splitlines, split with maxsplit, translate/maketrans, removeprefix/
# removesuffix, isidentifier and the is* predicates, format_map, count/find.
s = "model.layers.3.attn.weight"
print(s.partition("."), s.rpartition("."), s.partition("#"), s.rpartition("#"))
print(s.split(".", 2), s.rsplit(".", 1), "a,,b".split(","), "  a  b ".split(), "".split(","))
print("7".zfill(3), "-7".zfill(4), "ab".center(7, "*"), "ab".ljust(5, "."), "ab".rjust(5), "|" + "ab".center(6) + "|")
print(repr("a\tbc\td".expandtabs(4)), repr("\t".expandtabs()))
print("Straße".casefold(), "Straße".lower(), "Straße".upper(), "HeLLo".swapcase(), "hello world-wide".title(), "hELLO".capitalize())
text = "line1\nline2\r\nline3\rline4\n"
print(text.splitlines(), text.splitlines(keepends=True)[:2], "no newline".splitlines(), "".splitlines())
table = str.maketrans({"a": "4", "e": "3", "o": None})
print("a noted example".translate(table), "abc".translate(str.maketrans("abc", "xyz")), "a-b_c".translate(str.maketrans("-_", "  ")))
print("checkpoint_best.pt".removeprefix("checkpoint_"), "model.pt".removesuffix(".pt"), "x.pt".removesuffix(".bin"))
for w in ["lr", "2fast", "_private", "class", "with space", "über"]:
    print(repr(w), w.isidentifier(), w.isalpha(), w.isalnum(), w.islower())
print("123".isdigit(), "½".isnumeric(), "½".isdigit(), "3.5".isdecimal(), " \t".isspace(), "Title Case".istitle(), "ABC".isupper(), "ascii".isascii())
cfg = {"model": "gpt", "lr": 0.001}
print("{model} @ {lr:.0e}".format_map(cfg))


class Missing(dict):
    def __missing__(self, key):
        return f"<{key}>"


print("{model} {unknown}".format_map(Missing(cfg)))
print("banana".count("an"), "banana".find("na"), "banana".rfind("na"), "banana".find("x"), "banana".index("b"))
try:
    "banana".index("x")
except ValueError as e:
    print(type(e).__name__, e)
print("  x  ".strip(), "xxhixx".strip("x"), "..a..".lstrip("."), "..a..".rstrip("."), "a".join(["1", "2", "3"]))
print("Hello"[::-1], "abc" * 2, "b" in "abc", "abc" < "abd", "Z" < "a", sorted("hello"), min("hello"))
print("a_b".replace("_", "-"), "aaa".replace("a", "b", 2), "tab\tsep".startswith(("x", "tab")), "f.py".endswith((".py", ".pyc")))
print(str(3), str(None), str([1, "a"]), repr("it's"), repr('say "hi"'), ascii("é✓"), len("✓"), "é" == "e\u0301")
