# open() for text and binary files in a temp checkpoint directory: write/read
# modes, append, readline/readlines/iteration, seek/tell in binary, encoding,
# newline handling, "x" mode refusing to overwrite, and files closed by with.
import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    log_path = os.path.join(tmp, "train.log")
    with open(log_path, "w", encoding="utf-8") as f:
        for step in range(3):
            f.write(f"step {step} loss {1 / (step + 1):.4f}\n")
        print("written", f.tell(), f.closed, f.mode, os.path.basename(f.name))
    print("closed after with:", f.closed)
    with open(log_path, "a") as f:
        print("step 3 loss 0.2500 ✓", file=f)
    with open(log_path, encoding="utf-8") as f:
        first = f.readline()
        rest = f.readlines()
    print(repr(first), rest)
    with open(log_path) as f:
        losses = [float(line.split()[3]) for line in f if line.startswith("step")]
    print(losses, open(log_path).read().count("\n"))

    bin_path = os.path.join(tmp, "weights.bin")
    with open(bin_path, "wb") as f:
        n = f.write(bytes(range(10)))
        f.write(b"\xff" * 2)
    print("bytes written", n, os.path.getsize(bin_path))
    with open(bin_path, "rb") as f:
        print(f.read(3), f.tell())
        f.seek(-2, os.SEEK_END)
        print(f.read(), f.tell())
        f.seek(5)
        print(f.read(2), f.read(0), f.read(100)[-1])
    with open(bin_path, "r+b") as f:
        f.seek(1)
        f.write(b"AB")
    print(open(bin_path, "rb").read()[:4])
    crlf = os.path.join(tmp, "crlf.txt")
    with open(crlf, "wb") as f:
        f.write(b"a\r\nb\r\n")
    print(open(crlf).read().splitlines(), repr(open(crlf, newline="").read()), open(crlf, "rb").read())
    try:
        open(log_path, "x")
    except FileExistsError as e:
        print(type(e).__name__)
    with open(os.path.join(tmp, "new.txt"), "x") as f:
        f.write("exclusive")
    with open(os.path.join(tmp, "new.txt"), "w+") as f:
        f.write("overwritten")
        f.seek(0)
        print(f.read())
    try:
        with open(log_path) as f:
            f.write("nope")
    except OSError as e:
        print(type(e).__name__, e)
    try:
        open(os.path.join(tmp, "missing.txt"))
    except FileNotFoundError as e:
        print(type(e).__name__, e.strerror)
    print(sorted(os.listdir(tmp)))
