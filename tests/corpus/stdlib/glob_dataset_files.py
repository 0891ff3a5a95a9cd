# glob over a dataset tree in a temp dir: sorted wildcard matches (*, ?, [..]),
# recursive ** with recursive=True, root_dir for relative results, iglob,
# hidden files, and glob.escape; fnmatch.filter on names.
import fnmatch
import glob
import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    files = [
        "train/shard_000.bin", "train/shard_001.bin", "train/shard_010.bin", "train/meta.json",
        "val/shard_000.bin", "val/.hidden.bin", "test/a/b/deep.bin", "readme.md", "data[1].txt",
    ]
    for rel in files:
        path = os.path.join(tmp, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(rel)

    def show(pattern, **kw):
        found = glob.glob(pattern, root_dir=tmp, **kw)
        print(f"{pattern!r:28} {sorted(p.replace(os.sep, '/') for p in found)}")

    show("train/*.bin")
    show("*/shard_00?.bin")
    show("train/shard_0[01]*.bin")
    show("**/*.bin")
    show("**/*.bin", recursive=True)
    show("val/*")
    show("val/.*")
    show("*.md")
    show(glob.escape("data[1].txt"))
    show("data[1].txt")
    show("nothing/*")
    full = sorted(glob.glob(os.path.join(tmp, "train", "*.bin")))
    print([os.path.basename(p) for p in full], all(p.startswith(tmp) for p in full))
    print(sorted(os.path.basename(p) for p in glob.iglob(os.path.join(tmp, "**", "*.json"), recursive=True)))
    print(glob.has_magic("a*"), glob.has_magic("plain.txt"))
    names = sorted(os.listdir(os.path.join(tmp, "train")))
    print(fnmatch.filter(names, "shard_*"), fnmatch.filter(names, "*.json"))
