# Timing a loop with the time module. Only what does not vary between runs is
# printed: the types, the clocks' order, and sleep's argument checks.
import time

start = time.perf_counter()
t0 = time.time()
m0 = time.monotonic()
total = 0
for i in range(1000):
    total += i
elapsed = time.perf_counter() - start
print(total, type(elapsed).__name__, elapsed >= 0.0, elapsed < 60.0)
print(time.time() >= t0, t0 > 1.6e9, time.monotonic() >= m0)
ns = time.perf_counter_ns()
print(type(ns).__name__, time.perf_counter_ns() >= ns, time.time_ns() > 1600000000 * 10**9)
print(time.sleep(0), time.sleep(0.01), time.sleep(1))
print(f"{elapsed:.0f} s")

for bad in [-1, -0.5, "1", None, float("nan"), 1e300]:
    try:
        time.sleep(bad)
    except (ValueError, TypeError, OverflowError) as e:
        print(type(e).__name__, e)
try:
    time.sleep()
except TypeError as e:
    print(e)
try:
    time.time(1)
except TypeError as e:
    print(e)
