import os, json, pathlib, tempfile, shutil, glob, pickle, errno, io
print(os.listdir("."))
with open("input.txt", "w") as f:
    f.write("hello\nworld\n")
with open("input.txt") as f:
    print(repr(f.read()), f.name)
with open("input.txt", "a") as f:
    print(f.write("more\n"))
print(open("input.txt").readlines())
os.makedirs("out/ckpt", exist_ok=True)
json.dump({"step": 3, "loss": [1.5, 0.25]}, open("out/m.json", "w"))
print(json.load(open("out/m.json")))
p = pathlib.Path("out") / "notes.txt"
p.write_text("x" * 10)
print(p.read_text(), p.exists(), p.is_file(), p.parent.is_dir(), p.stat().st_size)
print(sorted(str(q) for q in pathlib.Path("out").iterdir()))
print(sorted(glob.glob("out/*")), sorted(glob.glob("**/*.json", recursive=True)))
with open("out/ckpt/state.pkl", "wb") as f:
    pickle.dump({"w": [1, 2, 3], "b": b"\x00\xff"}, f)
with open("out/ckpt/state.pkl", "rb") as f:
    print(pickle.load(f))
shutil.copy("input.txt", "out/copy.txt")
print(open("out/copy.txt").read().split())
os.rename("out/copy.txt", "out/moved.txt")
print(sorted(os.listdir("out")))
for bad in ("missing.txt", "out"):
    try:
        open(bad)
    except OSError as e:
        print(type(e).__name__, e.errno == {"missing.txt": errno.ENOENT, "out": errno.EISDIR}[bad], e.strerror, e.filename)
try:
    os.rmdir("out")
except OSError as e:
    print(type(e).__name__, e.strerror)
try:
    os.mkdir("out")
except FileExistsError as e:
    print("exists", e.filename)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "t.bin")
    with open(path, "wb") as f:
        f.write(bytes(range(5)))
    print(os.path.getsize(path), os.path.exists(path), os.path.isdir(d))
print(os.path.exists(d))
with tempfile.NamedTemporaryFile("w+", suffix=".txt", delete=True) as t:
    t.write("abc"); t.flush(); t.seek(0)
    print(t.read(), t.name.endswith(".txt"))
with tempfile.TemporaryFile() as t:
    t.write(b"xyz"); t.seek(0); print(t.read())
f = open("out/rw.bin", "w+b")
f.write(b"0123456789"); f.seek(3); print(f.read(4)); f.seek(0, io.SEEK_END); print(f.tell()); f.close()
for root, dirs, files in os.walk("out"):
    print(root, sorted(dirs), sorted(files))
shutil.rmtree("out/ckpt")
print(sorted(os.listdir("out")), os.path.isfile("out/m.json"))
os.remove("out/rw.bin")
print(os.stat("input.txt").st_size, oct(os.stat("out").st_mode & 0o170000))
os.chdir("out")
print(os.getcwd().endswith("/out"), sorted(os.listdir()))
os.chdir("..")
with open("uni.txt", "w", encoding="utf-8") as f:
    f.write("héllo ✓\n")
print(open("uni.txt", "rb").read(), open("uni.txt").read())
