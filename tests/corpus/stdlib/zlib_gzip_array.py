# Compression and packed numbers for dataset shards: zlib compress/decompress
# with levels and crc32/adler32, gzip round trips in memory and in a temp file,
# and array.array of typecodes (tobytes/frombytes, itemsize, byteswap).
import array
import gzip
import io
import os
import tempfile
import zlib

text = ("the quick brown fox jumps over the lazy dog. " * 40).encode()
for level in (0, 1, 6, 9):
    c = zlib.compress(text, level)
    print(level, len(text), len(c), zlib.decompress(c) == text)
print(zlib.crc32(text), zlib.adler32(text), zlib.crc32(b"abc"), hex(zlib.crc32(b"")))
co = zlib.compressobj()
chunks = co.compress(text[:500]) + co.compress(text[500:]) + co.flush()
print(zlib.decompress(chunks) == text)
try:
    zlib.decompress(b"garbage data")
except zlib.error as e:
    print(type(e).__name__, e)
gz = gzip.compress(text, mtime=0)
print(gz[:4], len(gzip.decompress(gz)), gzip.decompress(gz) == text, len(gz) == len(gzip.compress(text, mtime=0)))
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "tokens.txt.gz")
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for i in range(100):
            f.write(f"line {i}\n")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    print(len(lines), lines[:2], lines[-1])
    with gzip.open(path, "rb") as f:
        print(f.readline())
buf = io.BytesIO()
with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
    g.write(b"abc" * 10)
print(gzip.decompress(buf.getvalue()))

a = array.array("f", [0.1, 0.2, 0.3])
print(a, a.itemsize, a.typecode, len(a.tobytes()), a[1], list(a))
ids = array.array("H", [1, 2, 65535])
raw = ids.tobytes()
back = array.array("H")
back.frombytes(raw)
print(back == ids, back, raw)
ids.byteswap()
print(ids, array.array("i", range(5))[1:4], array.array("d", [1.5]) * 3)
b = array.array("b", [1, -1])
b.append(127)
b.extend([0, 2])
print(b, b.count(0), b.index(-1), b.tolist(), sum(b))
try:
    array.array("B", [256])
except OverflowError as e:
    print(type(e).__name__, e)
print(array.array("q", [2**62]).itemsize, array.array("u", "hi") if False else array.array("w", "hi"))
