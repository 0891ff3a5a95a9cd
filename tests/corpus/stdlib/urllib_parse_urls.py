# urllib.parse for dataset and model-hub URLs (no network): urlparse and its
# fields, urlunparse, urljoin, urlencode with lists (doseq), parse_qs and
# parse_qsl, quote/unquote/quote_plus, and urlsplit of odd URLs.
from urllib.parse import (parse_qs, parse_qsl, quote, quote_plus, unquote, unquote_plus, urlencode, urljoin,
                          urlparse, urlsplit, urlunparse)

u = urlparse("https://user:pw@huggingface.co:443/datasets/tiny shakespeare/resolve/main/input.txt?download=true&rev=a1#L10")
print(u)
print(u.scheme, u.netloc, u.hostname, u.port, u.username, u.path, u.query, u.fragment)
print(urlunparse(u._replace(query="", fragment="")))
print(urljoin("https://example.com/data/train/", "shard_01.bin"), urljoin("https://example.com/data/train", "val/x"))
print(urljoin("https://example.com/a/b/", "../c"), urljoin("https://example.com/a/", "/root"), urljoin("http://a/b", "https://other/x"))
params = {"model": "gpt2", "lr": 3e-4, "tags": ["a b", "c&d"], "n": 5}
q = urlencode(params, doseq=True)
print(q)
print(urlencode(params))
print(parse_qs(q), parse_qsl("a=1&a=2&b=&c=x+y", keep_blank_values=True))
print(parse_qs("x=1&y=2&x=3"), parse_qs("flag&k=v"))
print(quote("path with spaces/ü?&"), quote("a/b", safe=""), quote_plus("a b+c"), quote(b"\xff"))
print(unquote("%E2%9C%93%20ok"), unquote_plus("a+b%2Bc"), unquote("%zz"))
s = urlsplit("file:///tmp/data.csv")
print(s, s.path)
print(urlsplit("s3://bucket/key/part-0000.parquet"), urlparse("//cdn.example.com/x.js").netloc)
print(urlparse("relative/path.txt"), urlparse("http://[::1]:8080/").hostname, urlparse("http://h:80/").port)
try:
    urlparse("http://h:notaport/").port
except ValueError as e:
    print(type(e).__name__, e)
