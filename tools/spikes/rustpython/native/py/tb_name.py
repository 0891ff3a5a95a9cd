x = 1
y = undefined_name + x
