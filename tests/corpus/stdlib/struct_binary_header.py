# struct for binary dataset and checkpoint headers: pack/unpack/calcsize with
# byte orders (<, >, =, !), integer and float codes (I, i, H, B, q, f, d, ?),
# strings (s), padding, iter_unpack, Struct objects and struct.error.
import struct

header = struct.pack("<4sIIq", b"TOK1", 1, 50257, 123456789012)
print(header, len(header), struct.calcsize("<4sIIq"))
print(struct.unpack("<4sIIq", header))
print(struct.pack(">I", 1), struct.pack("<I", 1), struct.pack("!H", 258), struct.pack("<h", -2))
print(struct.pack("<f", 0.1), struct.unpack("<f", struct.pack("<f", 0.1))[0], struct.unpack("<d", struct.pack("<d", 0.1))[0])
print(struct.pack(">d", -2.5).hex(), struct.pack("<e", 1.5), struct.unpack("<e", b"\x00<"))
print(struct.calcsize("<bhiq"), struct.calcsize("<fd"), struct.calcsize("<?"), struct.calcsize("<3s2x"))
print(struct.pack("<5s", b"ab"), struct.pack("<2s", b"abcd"), struct.pack("<?B", True, 255))
tokens = [15496, 995, 0, 50256]
blob = struct.pack(f"<{len(tokens)}H", *tokens)
print(blob.hex(), struct.unpack(f"<{len(blob) // 2}H", blob))
print([t[0] for t in struct.iter_unpack("<H", blob)])
rec = struct.Struct("<If")
packed = b"".join(rec.pack(i, i / 4) for i in range(3))
print(rec.size, rec.format, [rec.unpack_from(packed, off) for off in range(0, len(packed), rec.size)])
buf = bytearray(8)
struct.pack_into("<ii", buf, 0, -1, 7)
print(buf, struct.unpack_from("<i", buf, 4))
print(struct.unpack("<q", b"\xff" * 8), struct.unpack("<Q", b"\xff" * 8), struct.unpack(">I", b"\x00\x00\x01\x00"))
print(struct.pack("<f", float("inf")), struct.unpack("<f", struct.pack("<f", 3.4e38))[0])
for fmt, args in [("<I", (-1,)), ("<B", (256,)), ("<I", (1, 2)), ("<f", ("x",))]:
    try:
        struct.pack(fmt, *args)
    except struct.error as e:
        print(type(e).__name__, e)
try:
    struct.unpack("<I", b"abc")
except struct.error as e:
    print(type(e).__name__, e)
try:
    struct.pack("<f", 1e39)
except OverflowError as e:
    print(type(e).__name__, e)
