# bytes, bytearray and memoryview as binary-file code uses them: literals and
# escapes, indexing giving ints, slicing, hex/fromhex, encode/decode with
# errors, bytearray mutation, memoryview slicing without copying, cast, and
# the TypeError mixing str and bytes.
b = b"GPT\x00\x01\xff"
print(b, len(b), b[0], b[-1], b[:3], b[3:], list(b), bytes(3), bytes([65, 66]))
print(b.hex(), b.hex(":"), bytes.fromhex("de ad be ef"), b"ab" * 3, b"a" + b"b", b"x" in b"xyz", 255 in b)
print(b"Hello".lower(), b"a,b,c".split(b","), b"  pad ".strip(), b"abc".startswith(b"ab"), b"abc".find(b"c"))
s = "naïve café ✓"
enc = s.encode("utf-8")
print(enc, len(s), len(enc), enc.decode("utf-8") == s, s.encode("ascii", errors="replace"), s.encode("latin-1", "ignore"))
print(b"\xff\xfeok".decode("utf-8", errors="replace"), b"\xe9".decode("latin-1"), repr(b"\xc3".decode("utf-8", "backslashreplace")))
try:
    b"\xff".decode("utf-8")
except UnicodeDecodeError as e:
    print(type(e).__name__, e)
try:
    b"abc" + "def"
except TypeError as e:
    print(type(e).__name__, e)
ba = bytearray(b"hello")
ba[0] = ord("H")
ba.extend(b" world")
ba += b"!"
ba.insert(5, 44)
del ba[-1]
print(ba, bytes(ba), ba.pop(), len(ba), bytearray(4), ba.replace(b"l", b"L"))
data = bytearray(range(16))
mv = memoryview(data)
head = mv[:4]
head[0] = 99
print(data[:5], mv.nbytes, mv.readonly, mv[2], bytes(mv[4:8]), mv[::4].tolist())
ints = mv.cast("I")
print(len(ints), ints.itemsize, ints.format, ints[1] == int.from_bytes(bytes(data[4:8]), "little"))
ro = memoryview(b"readonly")
print(ro.readonly, ro.tobytes(), ro[0], ro.hex())
try:
    ro[0] = 1
except TypeError as e:
    print(type(e).__name__, e)
with memoryview(bytearray(b"ctx")) as m:
    print(m.tobytes())
try:
    m.tobytes()
except ValueError as e:
    print(type(e).__name__, e)
print(ord("A"), chr(9731), b"%d items at %s" % (3, b"x"), bytes("é", "utf-8"), str(b"x", "ascii"), str(b"x"))
