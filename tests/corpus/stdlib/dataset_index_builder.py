# Building a dataset index the way preparation scripts do: scan a class-per-
# folder tree with pathlib, parse ids from names with re, count classes with
# Counter, hash file contents for dedup, write and re-read a CSV manifest and a
# JSON summary, all in a temp dir with only relative paths printed.
import csv
import hashlib
import json
import re
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp) / "images"
    layout = {"cat": ["cat_001.jpg", "cat_002.jpg", "cat_010.jpg"], "dog": ["dog_003.jpg", "dog_004.png"],
              "bird": ["bird_005.jpg", "README.txt"]}
    for cls, names in layout.items():
        (root / cls).mkdir(parents=True)
        for name in names:
            payload = b"same-bytes" if name in ("cat_002.jpg", "dog_003.jpg") else name.encode()
            (root / cls / name).write_bytes(payload)
    pattern = re.compile(r"^(?P<cls>[a-z]+)_(?P<id>\d{3})\.(?P<ext>jpe?g|png)$")
    rows, skipped, by_hash = [], [], defaultdict(list)
    for path in sorted(root.rglob("*")):
        if path.is_dir():
            continue
        m = pattern.match(path.name)
        if not m:
            skipped.append(path.relative_to(root).as_posix())
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        by_hash[digest].append(path.name)
        rows.append({"path": path.relative_to(root).as_posix(), "label": path.parent.name, "id": int(m["id"]),
                     "ext": m["ext"], "sha": digest})
    classes = sorted({r["label"] for r in rows})
    for r in rows:
        r["target"] = classes.index(r["label"])
    manifest = Path(tmp) / "manifest.csv"
    with manifest.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with manifest.open(newline="") as f:
        back = list(csv.DictReader(f))
    for r in back:
        print(r["path"], r["label"], r["id"], r["target"], r["sha"])
    summary = {"classes": classes, "counts": Counter(r["label"] for r in back), "skipped": skipped,
               "duplicates": sorted(v for v in by_hash.values() if len(v) > 1),
               "exts": Counter(r["ext"] for r in back).most_common()}
    (Path(tmp) / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
    print((Path(tmp) / "summary.json").read_text())
