# A checkpoint manager: saves pickled state under step-numbered names, keeps
# the best k by validation loss with heapq, finds the latest with a regex over
# a sorted glob, writes a "latest" pointer file, and restores state; names are
# printed relative to the temp directory.
import heapq
import os
import pickle
import re
import shutil
import tempfile
from pathlib import Path


class CheckpointManager:
    pattern = re.compile(r"ckpt_(\d{6})\.pkl$")

    def __init__(self, directory, keep_best=2):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.keep_best = keep_best
        self.best = []

    def save(self, step, state, val_loss):
        path = self.dir / f"ckpt_{step:06d}.pkl"
        with open(path, "wb") as f:
            pickle.dump({"step": step, "state": state, "val_loss": val_loss}, f, protocol=pickle.HIGHEST_PROTOCOL)
        (self.dir / "latest").write_text(path.name)
        heapq.heappush(self.best, (-val_loss, step, path.name))
        if len(self.best) > self.keep_best:
            _, old_step, old_name = heapq.heappop(self.best)
            print(f"  pruning {old_name} (step {old_step})")
            (self.dir / old_name).unlink()
        return path

    def steps(self):
        return [int(m.group(1)) for p in sorted(self.dir.glob("ckpt_*.pkl")) if (m := self.pattern.search(p.name))]

    def load_latest(self):
        name = (self.dir / "latest").read_text().strip()
        if not (self.dir / name).exists():
            name = f"ckpt_{max(self.steps()):06d}.pkl"
        with open(self.dir / name, "rb") as f:
            return pickle.load(f)


with tempfile.TemporaryDirectory() as tmp:
    mgr = CheckpointManager(os.path.join(tmp, "out", "ckpts"), keep_best=2)
    for step, loss in [(100, 0.9), (200, 0.7), (300, 0.8), (400, 0.6), (500, 0.95)]:
        p = mgr.save(step, {"w": [step / 100, -step / 200], "opt": {"lr": 0.1}}, loss)
        print(f"saved {p.relative_to(tmp).as_posix()} -> on disk {mgr.steps()}")
    print("best:", sorted((-l, s) for l, s, _ in mgr.best))
    ck = mgr.load_latest()
    print("latest pointer:", (mgr.dir / "latest").read_text(), "loaded:", ck)
    backup = shutil.copytree(mgr.dir, os.path.join(tmp, "backup"))
    shutil.rmtree(mgr.dir)
    print(sorted(os.listdir(backup)), os.path.exists(mgr.dir))
