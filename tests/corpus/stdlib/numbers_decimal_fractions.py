# The numeric tower and exact arithmetic: numbers.Number/Integral/Real checks
# in argument validation, Decimal with quantize and context precision (money-
# and metric-style rounding), Fraction arithmetic and limit_denominator.
import numbers
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation, getcontext, localcontext
from fractions import Fraction

for v in [3, 2.5, True, 1 + 2j, Fraction(1, 3), Decimal("1.1"), "3"]:
    print(repr(v), isinstance(v, numbers.Number), isinstance(v, numbers.Integral), isinstance(v, numbers.Real), isinstance(v, numbers.Rational))


def check_lr(lr):
    if not isinstance(lr, numbers.Real) or isinstance(lr, bool):
        raise TypeError(f"lr must be a real number, got {type(lr).__name__}")
    return float(lr)


print(check_lr(1), check_lr(Fraction(1, 4)))
try:
    check_lr("0.1")
except TypeError as e:
    print(type(e).__name__, e)
print(Decimal("0.1") + Decimal("0.2"), Decimal(0.1), Decimal("1.30") * 2, Decimal(10) / Decimal(3))
print(Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), Decimal("2.665").quantize(Decimal("0.01"), ROUND_HALF_EVEN))
print(Decimal("1.999").quantize(Decimal("1."), rounding=ROUND_DOWN), Decimal("7").sqrt(), Decimal("1e3").normalize(), Decimal("-0"))
with localcontext() as ctx:
    ctx.prec = 5
    print(Decimal(1) / Decimal(7), getcontext().prec)
print(getcontext().prec, Decimal("1.5").as_tuple(), Decimal("3.14").as_integer_ratio(), int(Decimal("9.99")))
try:
    Decimal("abc")
except InvalidOperation as e:
    print(type(e).__name__)
print(Decimal("inf") > 10**100, Decimal("NaN").is_nan(), sorted([Decimal("1.10"), Decimal("1.1"), Decimal("0.9")]))
f = Fraction(3, 4) + Fraction(1, 6)
print(f, f.numerator, f.denominator, float(f), Fraction(6, 8), Fraction("0.125"), Fraction(0.1))
print(Fraction(0.1).limit_denominator(100), Fraction(355, 113) - Fraction(22, 7), Fraction(1, 3) ** 2, Fraction(2) ** -1)
print(Fraction(1, 3) == 1 / 3, Fraction(1, 2) == 0.5, Fraction(7, 2) // 1, round(Fraction(7, 2)), Fraction(5, 3) % 1)
try:
    Fraction(1, 0)
except ZeroDivisionError as e:
    print(type(e).__name__, e)
print(sum(Fraction(1, n) for n in range(1, 7)), (2.5).as_integer_ratio(), (0.1).hex(), float.fromhex("0x1.8p1"))
