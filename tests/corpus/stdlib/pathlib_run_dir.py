# pathlib in a TemporaryDirectory as experiment code uses it: / joins, mkdir
# with parents/exist_ok, write_text/read_text, write_bytes, sorted glob and
# rglob, name/stem/suffix/suffixes/parent/parts, with_suffix, exists, unlink.
import tempfile
from pathlib import Path, PurePosixPath

p = PurePosixPath("runs/exp1/checkpoints/model.best.pt")
print(p.name, p.stem, p.suffix, p.suffixes, p.parent, p.parent.name, p.parts)
print(p.with_suffix(".bin"), p.with_name("last.pt"), p.with_stem("model.final"), p.relative_to("runs"))
print(PurePosixPath("a") / "b" / "c.txt", p.is_absolute(), PurePosixPath("/x/y").is_absolute(), list(p.parents)[:2])
print(PurePosixPath("data/*.csv").match("*.csv"), p.match("checkpoints/*.pt"), PurePosixPath("a/b/../c").parts)

with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp)
    out = root / "out" / "exp1"
    out.mkdir(parents=True)
    out.mkdir(parents=True, exist_ok=True)
    try:
        out.mkdir()
    except FileExistsError as e:
        print(type(e).__name__)
    (out / "config.json").write_text('{"lr": 0.1}\n')
    for step in (100, 20, 3):
        (out / f"ckpt_{step}.pt").write_bytes(bytes(step))
    (out / "logs").mkdir()
    (out / "logs" / "train.log").write_text("line1\nline2\n", encoding="utf-8")
    print(sorted(f.name for f in out.iterdir()))
    print([f.name for f in sorted(out.glob("*.pt"))])
    print([str(f.relative_to(root)) for f in sorted(root.rglob("*.log"))])
    print([f.relative_to(out).as_posix() for f in sorted(out.glob("**/*")) if f.is_file()])
    latest = max(out.glob("ckpt_*.pt"), key=lambda f: int(f.stem.split("_")[1]))
    print(latest.name, latest.stat().st_size, latest.suffix, latest.parent == out)
    print((out / "config.json").read_text(), (out / "logs" / "train.log").read_text().splitlines())
    print((out / "missing.txt").exists(), out.exists(), out.is_dir(), (out / "config.json").is_file())
    (out / "ckpt_3.pt").unlink()
    (out / "ckpt_3.pt").unlink(missing_ok=True)
    try:
        (out / "ckpt_3.pt").unlink()
    except FileNotFoundError as e:
        print(type(e).__name__, e.errno)
    renamed = (out / "ckpt_20.pt").rename(out / "best.pt")
    print(renamed.name, sorted(f.name for f in out.glob("*.pt")))
    with (out / "config.json").open("a") as f:
        f.write("# appended\n")
    print(len((out / "config.json").read_text().splitlines()), Path(tmp).is_absolute(), out.resolve() == out.resolve())
