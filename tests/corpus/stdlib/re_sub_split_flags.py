# re.sub with backreferences, named groups and a function replacement, subn,
# split with and without capture groups and maxsplit, flags (IGNORECASE,
# MULTILINE, DOTALL, VERBOSE), and re.error on a bad pattern.
import re

text = "Hello   World\tfrom  the\nTokenizer"
print(re.split(r"\s+", text), re.split(r"(\s+)", "a b  c"), re.split(r",", "a,b,c,d", maxsplit=2))
print(re.split(r"[;,]\s*", "lr=0.1; bs=32,epochs=3"))
print(re.sub(r"\s+", " ", text), re.subn(r"o", "0", text))
print(re.sub(r"(\w+)=(\w+)", r"\2=\1", "a=1 b=2"), re.sub(r"(?P<k>\w+):(?P<v>\d+)", r"\g<v>:\g<k>", "x:1 y:22"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "layer3.weight layer12.bias"))
state_keys = ["module.encoder.layer.0.weight", "module.decoder.bias", "head.weight"]
print([re.sub(r"^module\.", "", k) for k in state_keys])
print(re.sub(r"layer\.(\d+)", r"layers[\1]", state_keys[0]), re.sub("a", "b", "aaa", count=2))
print(re.findall(r"^\w+", "one\ntwo\nthree"), re.findall(r"^\w+", "one\ntwo\nthree", re.M))
print(re.findall(r"a.c", "a\nc abc"), re.findall(r"a.c", "a\nc abc", flags=re.DOTALL))
print(re.findall(r"relu", "ReLU relu RELU", re.IGNORECASE), re.compile("x", re.I | re.M).flags & re.I > 0)
number = re.compile(r"""
    (?P<sign>[-+])?      # optional sign
    (?P<int>\d+)         # integer part
    (?:\.(?P<frac>\d*))? # fraction
    (?:e(?P<exp>-?\d+))? # exponent
""", re.VERBOSE)
for s in ["3e-4", "-0.95", "+12", "7."]:
    print(s, number.fullmatch(s).groupdict())
print(re.sub(r"(?<=\d)(?=(\d{3})+$)", ",", "1234567"), re.findall(r"\b\w", "word boundary test"))
print("".join(w.capitalize() for w in re.split(r"[_\-]", "my_model-name")))
for bad in ["(unclosed", "[a-", "*x"]:
    try:
        re.compile(bad)
    except re.error as e:
        print(type(e).__name__, e)
print(re.compile(r"\d+").pattern, re.purge() is None, bool(re.compile("")))
