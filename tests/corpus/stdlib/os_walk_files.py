# Walking a dataset tree with os.walk (sorted so the order is fixed), os.scandir,
# os.stat sizes, os.rename, os.remove and os.rmdir, inside a temporary directory.
import os
import tempfile

with tempfile.TemporaryDirectory() as root:
    layout = {"train/cat": 3, "train/dog": 2, "val/cat": 1, "val/dog": 1}
    for sub, n in layout.items():
        d = os.path.join(root, *sub.split("/"))
        os.makedirs(d)
        for i in range(n):
            with open(os.path.join(d, f"img_{i}.jpg"), "wb") as f:
                f.write(bytes(range(i + 1)) * 10)

    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        rel = os.path.relpath(dirpath, root)
        print(rel.replace(os.sep, "/"), sorted(dirnames), sorted(filenames))

    classes = sorted(e.name for e in os.scandir(os.path.join(root, "train")) if e.is_dir())
    print("classes:", classes, {c: i for i, c in enumerate(classes)})
    total = 0
    for dirpath, _, filenames in os.walk(root):
        for fn in filenames:
            total += os.stat(os.path.join(dirpath, fn)).st_size
    print("total bytes:", total)

    src = os.path.join(root, "val", "dog", "img_0.jpg")
    dst = os.path.join(root, "val", "cat", "img_moved.jpg")
    os.rename(src, dst)
    print("after rename:", sorted(os.listdir(os.path.join(root, "val", "cat"))), os.listdir(os.path.join(root, "val", "dog")))
    os.rmdir(os.path.join(root, "val", "dog"))
    os.remove(dst)
    print("val now:", sorted(os.listdir(os.path.join(root, "val"))))
    try:
        os.remove(dst)
    except FileNotFoundError as e:
        print("FileNotFoundError:", e.errno, e.strerror)
    try:
        os.rmdir(os.path.join(root, "train"))
    except OSError as e:
        print(type(e).__name__, e.strerror)
