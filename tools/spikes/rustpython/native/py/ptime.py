import subprocess, sys, time, statistics
n = 7
ts = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    ts.append((time.perf_counter() - t) * 1e3)
print("min %.1f med %.1f ms  (%s)" % (min(ts), statistics.median(ts), " ".join(sys.argv[1:])))
