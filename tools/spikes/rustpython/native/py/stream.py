import sys, _host
print("line one")
_host.read(50)
print("to stderr", file=sys.stderr)
print("a", "b", sep="-", end="!\n")
sys.stdout.write("raw write\n")
