# A whole fake training run in plain Python, the shape of a real script: an
# argparse CLI on an explicit argv, a dataclass config, logging to stdout,
# seeded random data, a loop with a cosine schedule, metrics saved as JSON in
# a temp run dir (pathlib), and a timing check that is only tested for >= 0.
import argparse
import json
import logging
import math
import random
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass
class Config:
    steps: int = 50
    lr: float = 0.1
    seed: int = 0
    log_every: int = 10


def parse(argv):
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=Config.steps)
    p.add_argument("--lr", type=float, default=Config.lr)
    p.add_argument("--seed", type=int, default=Config.seed)
    return Config(**vars(p.parse_args(argv)))


logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s %(message)s")
log = logging.getLogger("run")
cfg = parse(["--steps", "40", "--lr", "0.05", "--seed", "7"])
log.info("config %s", json.dumps(asdict(cfg), sort_keys=True))
rng = random.Random(cfg.seed)
true_w, true_b = 2.0, -1.0
data = [(x, true_w * x + true_b + rng.gauss(0, 0.1)) for x in (rng.uniform(-1, 1) for _ in range(64))]
w = b = 0.0
history = []
t0 = time.perf_counter()
for step in range(cfg.steps):
    lr = cfg.lr * 0.5 * (1 + math.cos(math.pi * step / cfg.steps)) * 10
    batch = rng.sample(data, 16)
    gw = sum(2 * (w * x + b - y) * x for x, y in batch) / len(batch)
    gb = sum(2 * (w * x + b - y) for x, y in batch) / len(batch)
    w, b = w - lr * gw, b - lr * gb
    loss = sum((w * x + b - y) ** 2 for x, y in data) / len(data)
    history.append({"step": step, "loss": round(loss, 6), "lr": round(lr, 6)})
    if step % cfg.log_every == 0 or step == cfg.steps - 1:
        log.info("step %3d lr %.4f loss %.6f", step, lr, loss)
elapsed = time.perf_counter() - t0
log.info("w=%.4f b=%.4f (true %.1f, %.1f)", w, b, true_w, true_b)
with tempfile.TemporaryDirectory() as tmp:
    run_dir = Path(tmp) / "runs" / f"lr{cfg.lr}_seed{cfg.seed}"
    run_dir.mkdir(parents=True)
    (run_dir / "metrics.json").write_text(json.dumps({"history": history, "final": {"w": w, "b": b}}, indent=1))
    (run_dir / "config.json").write_text(json.dumps(asdict(cfg)))
    saved = json.loads((run_dir / "metrics.json").read_text())
    print(sorted(p.name for p in run_dir.iterdir()), run_dir.name, len(saved["history"]), saved["history"][-1])
print("elapsed >= 0:", elapsed >= 0, "improved:", history[-1]["loss"] < history[0]["loss"])
