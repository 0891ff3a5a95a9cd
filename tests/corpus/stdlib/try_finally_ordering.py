# The order of try / except / else / finally blocks, finally running on return,
# break and continue, nested handlers with their finally blocks, and a bare
# raise re-raising the original exception.
def attempt(x):
    log = []
    try:
        log.append("try")
        if x == "raise":
            raise ValueError("v")
        if x == "return":
            return log + ["returned"]
    except ValueError:
        log.append("except")
    else:
        log.append("else")
    finally:
        log.append("finally")
    log.append("after")
    return log


for case in ["ok", "raise", "return"]:
    print(case, attempt(case))


def finally_wins():
    try:
        return "try"
    finally:
        print("  finally runs before the return value is used")


print(finally_wins())
for i in range(3):
    try:
        if i == 1:
            continue
        if i == 2:
            break
        print("  body", i)
    finally:
        print("  finally", i)


def reraise():
    try:
        {}["k"]
    except KeyError:
        print("  logging and re-raising")
        raise


try:
    reraise()
except KeyError as e:
    print(type(e).__name__, e)


def cleanup_order():
    out = []
    try:
        try:
            raise RuntimeError("inner")
        finally:
            out.append("inner finally")
    except RuntimeError as e:
        out.append(f"outer except {e}")
    finally:
        out.append("outer finally")
    return out


print(cleanup_order())
try:
    try:
        raise TypeError("first")
    finally:
        print("  finally while TypeError propagates")
except TypeError as e:
    print("caught", e)
