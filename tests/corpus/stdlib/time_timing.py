# The time module as training loops use it: perf_counter and monotonic deltas
# (only checked to be non-negative), time.time's type, a short sleep, and
# formatting fixed timestamps with gmtime/strftime and calendar (TZ-independent).
import time

t0 = time.perf_counter()
total = sum(i * i for i in range(10000))
dt = time.perf_counter() - t0
print("work:", total, "dt >= 0:", dt >= 0, type(dt).__name__)
m0 = time.monotonic()
time.sleep(0.01)
m1 = time.monotonic()
print("monotonic advanced:", m1 - m0 >= 0)
now = time.time()
print(type(now).__name__, now > 1.6e9, type(time.time_ns()).__name__, time.perf_counter_ns() >= 0)
st = time.gmtime(0)
print(st.tm_year, st.tm_mon, st.tm_mday, st.tm_wday, st.tm_yday)
print(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1700000000)))
print(time.strftime("%a %b %d %j", time.gmtime(86400 * 365)))
print(time.asctime(time.gmtime(1234567890)))
print(time.mktime(time.strptime("2024-01-02", "%Y-%m-%d")) > 0, tuple(time.strptime("12:30", "%H:%M"))[3:5])
import calendar
print(calendar.timegm(time.gmtime(1700000000)), calendar.isleap(2024), calendar.monthrange(2024, 2))


def fmt_duration(seconds):
    h, rem = divmod(int(seconds), 3600)
    m, s = divmod(rem, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


print(fmt_duration(3725.9), fmt_duration(59), fmt_duration(86399))
times = []
for step in range(3):
    start = time.perf_counter()
    _ = [x ** 0.5 for x in range(1000)]
    times.append(time.perf_counter() - start)
print(len(times), all(t >= 0 for t in times), min(times) <= max(times))
print(time.process_time() >= 0, isinstance(time.thread_time(), float))
