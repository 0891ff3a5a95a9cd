import re as _re0
def rss(): return int(open('/proc/self/status').read().split('VmRSS:')[1].split()[0])
a = rss(); print("start", a)
import importlib
for m in ["collections", "re", "typing", "json", "dataclasses", "logging", "argparse"]:
    b = rss(); importlib.import_module(m); print(m, rss() - b, "kB")
print("total delta", rss() - a, "kB")
