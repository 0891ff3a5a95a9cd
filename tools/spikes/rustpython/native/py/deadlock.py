import _host
r = _host.rank()
x = _host.all_reduce(1)
print("first all_reduce ok:", x)
try:
    if r == 0:
        y = _host.all_reduce(r)
    else:
        y = _host.broadcast(r)
except RuntimeError as e:
    print("caught RuntimeError:", e)
    raise
