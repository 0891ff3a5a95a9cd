# os and os.path the way a run-directory helper uses them: join, splitext,
# basename, dirname, exists, makedirs(exist_ok=True), sorted listdir, environ.get
# with a default, and chdir into a temp dir with paths relative to getcwd().
import os
import tempfile

print(os.path.join("runs", "exp1", "ckpt.pt"))
print(os.path.splitext("model.best.pt"), os.path.splitext("noext"), os.path.splitext(".bashrc"))
print(os.path.basename("/data/train/images/0001.png"), os.path.dirname("/data/train/images/0001.png"))
print(os.path.split("a/b/c.txt"), os.path.normpath("a/./b/../c//d"))
print(os.path.isabs("/x"), os.path.isabs("x"), os.sep, os.path.join("a", "/abs", "b"))
print("env default:", os.environ.get("TPU_PLAYGROUND_UNSET_VAR", "fallback"))
print("getenv default:", os.getenv("ANOTHER_UNSET_VAR_XYZ", "42"))
os.environ["MY_RUN_NAME"] = "baseline"
print("set then get:", os.environ["MY_RUN_NAME"], "MY_RUN_NAME" in os.environ)
del os.environ["MY_RUN_NAME"]
print("after del:", os.environ.get("MY_RUN_NAME"))

start = os.getcwd()
with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    out_dir = os.path.join("out", "exp1")
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(out_dir, exist_ok=True)
    try:
        os.makedirs(out_dir)
    except FileExistsError as e:
        print("FileExistsError errno:", e.errno)
    for name in ["b.log", "a.log", "ckpt_10.pt", "ckpt_2.pt"]:
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(name * 2)
    print("listdir:", sorted(os.listdir(out_dir)))
    print("exists:", os.path.exists(out_dir), os.path.isdir(out_dir), os.path.isfile(os.path.join(out_dir, "a.log")))
    print("missing:", os.path.exists("nope"), os.path.getsize(os.path.join(out_dir, "a.log")))
    print("cwd is tmp:", os.path.samefile(os.getcwd(), tmp))
    print("relpath:", os.path.relpath(os.path.join(os.getcwd(), out_dir, "a.log"), os.getcwd()))
    ckpts = sorted((f for f in os.listdir(out_dir) if f.endswith(".pt")), key=lambda f: int(f[5:-3]))
    print("checkpoints by step:", ckpts)
    os.chdir(start)
print("back in start:", os.getcwd() == start, "tmp gone:", not os.path.exists(tmp))
