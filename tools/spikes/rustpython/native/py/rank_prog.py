import argparse, dataclasses, logging, json, re, collections, typing
import sys, _host

@dataclasses.dataclass
class Cfg:
    lr: float = 0.1
    steps: int = 3

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=3)
args = p.parse_args([])
r = _host.rank()
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s", stream=sys.stdout)
log = logging.getLogger("train")
cfg = Cfg(steps=args.steps)
c = collections.Counter("hello")
for step in range(cfg.steps):
    total = _host.all_reduce(r + step)
    log.info("step %d rank %d all_reduce -> %d", step, r, total)
print(json.dumps({"rank": r, "cfg": dataclasses.asdict(cfg), "m": re.findall(r"l+", "hello")[0], "c": c["l"]}))
print("to stderr", file=sys.stderr)
