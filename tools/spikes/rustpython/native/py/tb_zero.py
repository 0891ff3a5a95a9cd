def f(a, b):
    c = a + 1
    return c / b

f(1, 0)
