# In-memory streams: StringIO as a text buffer (write, seek, read, readline,
# getvalue, iteration), BytesIO round trips of binary data, and TextIOWrapper
# decoding and encoding text over a BytesIO with an explicit encoding.
import io

buf = io.StringIO()
print("epoch,loss", file=buf)
for e in range(3):
    buf.write(f"{e},{1 / (e + 1):.3f}\n")
print(repr(buf.getvalue()), buf.tell())
buf.seek(0)
print(repr(buf.readline()), repr(buf.read(5)), buf.readlines())
for line in io.StringIO("a\nb\n\nc"):
    print(repr(line))
s = io.StringIO("initial")
s.seek(0, io.SEEK_END)
s.write("+more")
print(s.getvalue(), s.closed)
s.close()
try:
    s.getvalue()
except ValueError as e:
    print(type(e).__name__, e)

b = io.BytesIO()
b.write(b"\x89PNG\r\n")
b.write(bytes([0, 255, 16]))
print(b.getvalue(), b.tell(), len(b.getbuffer()))
b.seek(0)
print(b.read(4), b.read(), b.read())
b.seek(2)
b.write(b"XY")
print(b.getvalue())
r = io.BytesIO(b"line1\nline2\n")
print(r.readlines())
with io.BytesIO() as raw:
    w = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
    w.write("héllo\nwörld ✓\n")
    w.flush()
    data = raw.getvalue()
    print(data, len(data), len("héllo\nwörld ✓\n"))
    w.detach()
t = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
print(t.readline(), end="")
print(t.read().upper(), end="")
print(t.encoding)
latin = io.TextIOWrapper(io.BytesIO("café".encode("latin-1")), encoding="latin-1")
print(latin.read())
bad = io.TextIOWrapper(io.BytesIO(b"\xff\xfe ok"), encoding="utf-8", errors="replace")
print(repr(bad.read()))
print(isinstance(buf, io.TextIOBase), isinstance(b, io.BufferedIOBase), isinstance(b, io.IOBase))
