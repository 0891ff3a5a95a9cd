# Python's arbitrary-precision integers: 2**100, factorial(30), bit_length,
# three-argument pow (and modular inverse), divmod and floor division with
# negatives, int<->bytes, base conversions, and int/float boundaries.
import math

print(2 ** 100, 2 ** 64 - 1, -(2 ** 63), 10 ** 30 // 7)
print(math.factorial(30), math.factorial(30).bit_length(), len(str(math.factorial(100))))
for n in [0, 1, 255, 256, -256, 2 ** 100]:
    print(n, n.bit_length(), n.bit_count())
print(pow(3, 200, 10 ** 9 + 7), pow(2, 10 ** 6, 1000), pow(3, -1, 7), pow(2, -2), pow(-8, 1 / 3).real > 0)
print(divmod(-7, 3), -7 // 3, -7 % 3, divmod(7, -3), int(-7 / 3), 7 // -3.0)
print((2 ** 100).to_bytes(13, "big").hex(), int.from_bytes(b"\x01\x00", "little"), int.from_bytes(b"\xff", "big", signed=True))
print((-1).to_bytes(2, "little", signed=True), (1024).to_bytes(2), int.from_bytes(b"\x00\x10"))
print(bin(42), oct(42), hex(255), int("ff", 16), int("0b101", 0), int("1_000_000"), int("  -12 "), int("z", 36))
print(f"{2 ** 64:,}", f"{255:08b}", f"{3735928559:x}", f"{10 ** 20:.3e}", format(12345678, "_"))
big = 3 ** 150
print(big % 1000, big // 3 ** 149, big > 1e71, float(big), big == float(big), int(1e22))
print(2 ** 53 + 1 == float(2 ** 53 + 1), int(float(2 ** 53 + 1)), math.isqrt(10 ** 40), math.gcd(2 ** 64, 6 ** 20))
try:
    float(10 ** 400)
except OverflowError as e:
    print(type(e).__name__, e)
print(10 ** 400 > 1e308, -(10 ** 400) < -1e308, (10 ** 400) / (10 ** 399), 7 / 2, 7 // 2, -7 >> 1, 1 << 70, ~5, 6 & 3, 6 | 3, 6 ^ 3)
print(sum(range(10 ** 6)), abs(-2 ** 80), hash(2 ** 61 - 1) == 0, hash(-1), hash(5), round(123456, -3))
print(True + True, int(True), 3 * True, isinstance(True, int), (5).conjugate(), (10).numerator, int.__name__)
