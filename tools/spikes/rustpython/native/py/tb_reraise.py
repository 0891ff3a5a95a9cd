import math
try:
    y = math.sqrt(-1)
except ValueError as e:
    print("caught", e)
    raise
