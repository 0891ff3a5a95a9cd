import _host, time
t = time.perf_counter()
s = 0
for i in range(200):
    s += _host.read(i)
dt = time.perf_counter() - t
print("sum", s, "expected", 2 * sum(range(200)), "200 reads took %.3f s" % dt)
