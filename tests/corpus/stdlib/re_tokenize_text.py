# Regex-based text preprocessing for a tokenizer: a GPT-2-like pre-tokenizer
# pattern built only from re features (contractions, letters, numbers,
# punctuation, whitespace runs), Unicode \w matching, normalizing whitespace,
# stripping markup, and a character-level vocabulary.
import re
import unicodedata

PAT = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+""")
text = "Hello world! It's 2024, we'll train 3 models... naïve café  résumé\tdone"
pieces = PAT.findall(text)
print(pieces)
print("".join(pieces) == text, len(pieces))
print(re.findall(r"\w+", "naïve café 東京 x_y 42"), re.findall(r"\w+", "naïve café", re.ASCII))
print(re.sub(r"\s+", " ", "  too   many\n\nspaces\t here ").strip())
html = "<p>Some <b>bold</b> text &amp; a <a href='x'>link</a>.</p>"
print(re.sub(r"<[^>]+>", "", html).replace("&amp;", "&"))
print(re.findall(r"<(\w+)[^>]*>", html), re.findall(r"href='([^']*)'", html))
s = "Ünïcödé Text"
print(unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode(), unicodedata.name("é"), unicodedata.category("9"))
print(unicodedata.normalize("NFC", "e\u0301") == "é", len("e\u0301"), len(unicodedata.normalize("NFC", "e\u0301")))
corpus = "first citizen:\nbefore we proceed any further, hear me speak.\n"
chars = sorted(set(corpus))
stoi = {ch: i for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: "".join(chars[i] for i in l)
print(len(chars), repr("".join(chars)), encode("hear me"), decode(encode("hear me")))
sentences = re.split(r"(?<=[.!?])\s+", "One. Two! Three? Four")
print(sentences, [len(re.findall(r"\b\w+\b", x)) for x in sentences])
print(re.sub(r"(\d)(?=(\d{3})+(?!\d))", r"\1,", "tokens: 1234567 and 89"), re.findall(r"[A-Z][a-z]+", "CamelCaseWordsHere"))
print(re.sub(r"([a-z])([A-Z])", r"\1_\2", "learningRateWarmup").lower(), re.match(r"(?i)^v(\d+)\.(\d+)$", "V2.15").groups())
