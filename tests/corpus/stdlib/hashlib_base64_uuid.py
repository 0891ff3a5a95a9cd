# Content hashing and ids for caches and downloads: md5/sha1/sha256 hexdigests
# of bytes, incremental update() over chunks, digest sizes, blake2b with
# digest_size, base64 and urlsafe encodings, and deterministic uuid3/uuid5.
import base64
import hashlib
import uuid

data = b"hello world\n"
print(hashlib.md5(data).hexdigest())
print(hashlib.sha1(data).hexdigest())
print(hashlib.sha256(data).hexdigest())
print(hashlib.sha256(b"").hexdigest(), hashlib.sha512(b"abc").hexdigest()[:32])
h = hashlib.sha256()
for i in range(0, len(data), 5):
    h.update(data[i:i + 5])
print(h.hexdigest() == hashlib.sha256(data).hexdigest(), h.digest_size, h.block_size, h.name, len(h.digest()))
cfg_key = hashlib.md5(repr(sorted({"lr": 0.1, "bs": 32}.items())).encode()).hexdigest()[:8]
print("cache key:", cfg_key)
print(hashlib.new("sha256", b"x").hexdigest()[:16], hashlib.blake2b(b"x", digest_size=8).hexdigest())
print("sha256" in hashlib.algorithms_guaranteed, hashlib.sha256("é".encode("utf-8")).hexdigest()[:12])
c = hashlib.md5(b"abc")
c2 = c.copy()
c2.update(b"def")
print(c.hexdigest(), c2.hexdigest() == hashlib.md5(b"abcdef").hexdigest())

raw = bytes(range(250, 256)) + b"tokens?"
enc = base64.b64encode(raw)
print(enc, base64.b64decode(enc) == raw, base64.urlsafe_b64encode(raw), base64.b64encode(b""))
print(base64.b32encode(b"abc"), base64.b16encode(b"\x00\xffA"), base64.b85encode(b"hi"))
print(base64.b64decode("aGVsbG8="), base64.standard_b64encode(b"ab"), base64.b64encode(b"a").decode("ascii"))
try:
    base64.b64decode("abc", validate=True)
except Exception as e:
    print(type(e).__name__, e)

ns = uuid.NAMESPACE_URL
print(uuid.uuid5(ns, "https://example.com/dataset/v1"))
print(uuid.uuid3(uuid.NAMESPACE_DNS, "example.com"), uuid.uuid5(uuid.NAMESPACE_DNS, "example.com").version)
u = uuid.UUID("12345678-1234-5678-1234-567812345678")
print(u, u.hex, u.int, u.version, repr(u), u.urn)
print(uuid.UUID(bytes=b"\x00" * 16), str(uuid.uuid5(ns, "a")) == str(uuid.uuid5(ns, "a")), type(uuid.uuid4()).__name__)
try:
    uuid.UUID("not-a-uuid")
except ValueError as e:
    print(type(e).__name__, e)
