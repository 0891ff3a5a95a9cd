# Exceptions: raising, catching, finally, and the messages Python gives.
class ShapeError(ValueError):
    pass


def check(n):
    if n < 0:
        raise ShapeError(f"negative size {n}")
    return n


results = []
for value in [3, -1]:
    try:
        results.append(check(value))
    except ShapeError as e:
        results.append(f"caught {type(e).__name__}: {e}")
    finally:
        results.append("done")
print(results)

for thunk in [lambda: 1 / 0, lambda: [1][3], lambda: {"a": 1}["b"], lambda: int("x"), lambda: undefined]:
    try:
        thunk()
    except (ZeroDivisionError, IndexError, KeyError, ValueError, NameError) as e:
        print(type(e).__name__, e)

try:
    try:
        raise KeyError("inner")
    except KeyError:
        raise RuntimeError("outer")
except RuntimeError as e:
    print("outer caught", e, isinstance(e, Exception))


def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return float("inf")
    else:
        return None


print(safe_div(1, 0), safe_div(1, 4))
try:
    assert 1 + 1 == 3, "math is broken"
except AssertionError as e:
    print("assert:", e)
