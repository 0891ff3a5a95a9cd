# Unicode character names, which a training script meets in its strings
# ("\N{...}" escapes, parsed by the compiler) and in unicodedata: both read
# the one set of name tables the wasm carries (vendor/README.md).
import unicodedata

print("\N{GREEK SMALL LETTER ALPHA}\N{GREEK SMALL LETTER BETA}", "\N{EM DASH}", "\N{SNOWMAN}", len("\N{CJK UNIFIED IDEOGRAPH-4E00}"))
print(ascii("\N{LATIN SMALL LETTER E WITH ACUTE}"), "\N{latin small letter a}")
for ch in "aZ7 é€😀":
    print(repr(ch), unicodedata.name(ch, "?"), unicodedata.category(ch))
print(unicodedata.lookup("BLACK HEART SUIT"), unicodedata.lookup("HANGUL SYLLABLE GAG"))
try:
    unicodedata.lookup("NO SUCH CHARACTER NAME")
except KeyError as e:
    print("KeyError:", e)
