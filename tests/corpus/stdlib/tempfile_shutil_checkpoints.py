# tempfile and shutil for checkpoint handling: NamedTemporaryFile (delete and
# delete=False), mkstemp with a suffix, TemporaryDirectory cleanup, shutil.copy,
# copyfile, copytree, move and rmtree; random names are never printed.
import os
import shutil
import tempfile

with tempfile.NamedTemporaryFile("w+", suffix=".json") as f:
    f.write('{"step": 1}')
    f.flush()
    f.seek(0)
    print(f.read(), f.name.endswith(".json"), os.path.exists(f.name))
    name = f.name
print("deleted on close:", not os.path.exists(name))
fd, path = tempfile.mkstemp(suffix=".pt", prefix="ckpt_")
with os.fdopen(fd, "wb") as f:
    f.write(b"\x00" * 16)
print(os.path.basename(path).startswith("ckpt_"), path.endswith(".pt"), os.path.getsize(path))
os.remove(path)
f = tempfile.NamedTemporaryFile(delete=False)
f.write(b"keep")
f.close()
print(open(f.name, "rb").read(), os.path.exists(f.name))
os.unlink(f.name)
print(isinstance(tempfile.gettempdir(), str))

with tempfile.TemporaryDirectory(prefix="run_") as tmp:
    print(os.path.basename(tmp).startswith("run_"))
    src = os.path.join(tmp, "exp")
    os.makedirs(os.path.join(src, "ckpts"))
    with open(os.path.join(src, "ckpts", "last.pt"), "w") as f:
        f.write("weights")
    with open(os.path.join(src, "config.yaml"), "w") as f:
        f.write("lr: 0.1\n")
    best = shutil.copy(os.path.join(src, "ckpts", "last.pt"), os.path.join(src, "ckpts", "best.pt"))
    print(os.path.relpath(best, tmp).replace(os.sep, "/"), sorted(os.listdir(os.path.join(src, "ckpts"))))
    shutil.copyfile(os.path.join(src, "config.yaml"), os.path.join(tmp, "config_copy.yaml"))
    dst = shutil.copytree(src, os.path.join(tmp, "backup"))
    print(os.path.basename(dst), sorted(os.listdir(dst)), sorted(os.listdir(os.path.join(dst, "ckpts"))))
    try:
        shutil.copytree(src, os.path.join(tmp, "backup"))
    except FileExistsError as e:
        print(type(e).__name__)
    shutil.copytree(src, os.path.join(tmp, "backup"), dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.yaml"))
    moved = shutil.move(os.path.join(tmp, "config_copy.yaml"), os.path.join(src, "ckpts"))
    print(os.path.basename(moved), sorted(os.listdir(os.path.join(src, "ckpts"))))
    shutil.move(os.path.join(tmp, "backup"), os.path.join(tmp, "archive"))
    print(sorted(os.listdir(tmp)))
    shutil.rmtree(os.path.join(tmp, "archive"))
    print(sorted(os.listdir(tmp)))
    shutil.rmtree(os.path.join(tmp, "nothing"), ignore_errors=True)
    try:
        shutil.rmtree(os.path.join(tmp, "nothing"))
    except FileNotFoundError as e:
        print(type(e).__name__, e.errno)
    print(shutil.disk_usage(tmp).total > 0, shutil.which("definitely-not-a-command-xyz"))
saved = tmp
print("cleaned up:", not os.path.exists(saved))
