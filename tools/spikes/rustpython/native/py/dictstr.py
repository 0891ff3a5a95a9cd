d = {}
for i in range(100000):
    k = "key" + str(i % 1000)
    d[k] = d.get(k, 0) + len(k)
parts = []
for k in sorted(d):
    parts.append(k.upper() + "=" + str(d[k]))
s = ",".join(parts)
print(len(s), s[:40])
