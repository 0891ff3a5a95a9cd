s=0
for i in range(300000): s += i*i % 7
print(s)
