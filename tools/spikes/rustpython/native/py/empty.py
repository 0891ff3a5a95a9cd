print("empty")
