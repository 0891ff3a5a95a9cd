#!/usr/bin/env python3
"""A long fuzz campaign: the fuzz test (crates/tpu-torch/tests/fuzz.rs) over
many seeds, one process per seed, a few at a time, with the outcome mix summed.

One process per seed keeps each process's memory bounded (a process's memory
grows with the cases it has run) and lets the cores share the work; each seed
is one `TPU_FUZZ_SEED=S TPU_FUZZ_CASES=N` run of the test binary, so a failing
seed reproduces with the command its output prints.

    python3 tools/fuzz_campaign.py --seeds 100 --cases 10000 --jobs 2 [--first-seed S]
    python3 tools/fuzz_campaign.py --summarize target/fuzz-campaign.jsonl

It builds the test binary (release), prints a line per finished seed, appends
each seed's counts to a JSON-lines file (`--out`), and at the end, or when
interrupted (Ctrl+C, SIGTERM: the seeds still running are dropped), prints the
campaign's summary: cases, seeds, wall time, cases per second, and how the
cases ended. It exits non-zero if any seed failed (a panic, a hang, an
unlocated diagnostic), after printing that seed's output. `--summarize` prints
the summary of a file of earlier runs.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_binary():
    out = subprocess.run(
        ["cargo", "test", "-p", "tpu-torch", "--release", "--test", "fuzz",
         "--no-run", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable") \
                and msg["target"]["name"] == "fuzz":
            return msg["executable"]
    sys.exit("fuzz_campaign: cargo built no fuzz test binary")


RUNNING = set()  # the seeds' processes, killed when the campaign is interrupted


def run_seed(binary, seed, cases):
    env = dict(os.environ, TPU_FUZZ_SEED=str(seed), TPU_FUZZ_CASES=str(cases))
    started = time.time()
    proc = subprocess.Popen([binary, "--nocapture"], env=env, cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    RUNNING.add(proc)
    output, _ = proc.communicate()
    RUNNING.discard(proc)
    return seed, proc.returncode, output, time.time() - started


def parse(output):
    """The counts in one seed's summary (see `Tally::summary`)."""
    counts = Counter()
    m = re.search(r"sources: (\d+) random bytes, (\d+) mutated programs, "
                  r"(?:(\d+) mutated standard-library programs, )?(\d+) mutated distributed", output)
    if not m:
        return None
    counts["random bytes"], counts["mutated"], counts["distributed"] = map(int, m.group(1, 2, 4))
    counts["stdlib"] = int(m.group(3) or 0)
    for part in ("single-process", "distributed"):
        m = re.search(rf"^\s*{part}: (\d+) reached the tensor runtime .*?, (\d+) ran to the end", output, re.M)
        counts[f"{part} reached"], counts[f"{part} completed"] = map(int, m.groups())
    counts["output"] = int(re.search(r"^\s*output: (\d+)", output, re.M).group(1))
    counts["step budget"] = int(re.search(r"^\s*step-budget stop: (\d+)", output, re.M).group(1))
    for group in ("parse errors", "Python errors"):
        m = re.search(rf"^\s*{group}: \d+ \([\d.]+%\):? ?(.*)$", output, re.M)
        for name, n in re.findall(r"(\w+) (\d+)", m.group(1) if m else ""):
            counts[f"{group}: {name}"] += int(n)
    return counts


def summarize(records, wall, failed):
    total = Counter()
    for r in records:
        total.update(r["counts"])
    seeds = sorted(r["seed"] for r in records)
    wall = wall if wall is not None else sum(r["seconds"] for r in records)
    cases = total["random bytes"] + total["mutated"] + total["stdlib"] + total["distributed"]
    single = total["random bytes"] + total["mutated"]
    pct = lambda n, d: f"{100.0 * n / max(d, 1):.1f}%"
    span = f"{seeds[0]}..{seeds[-1]}" if seeds else "none"
    print(f"\nfuzz campaign: {cases} cases over {len(seeds)} passing seeds ({span}), "
          f"{len(failed)} failed, in {wall:.0f} s, {cases / max(wall, 1e-9):.1f} cases/s")
    # Records before the standard-library programs were counted apart have
    # them among the mutated programs.
    print(f"  sources: {total['random bytes']} random bytes, {total['mutated']} mutated programs, "
          f"{total['stdlib']} mutated standard-library programs, "
          f"{total['distributed']} mutated distributed programs")
    print(f"  single-process: {pct(total['single-process reached'], single)} reached the tensor runtime, "
          f"{pct(total['single-process completed'], single)} ran to the end")
    print(f"  distributed: {pct(total['distributed reached'], total['distributed'])} reached the tensor runtime, "
          f"{pct(total['distributed completed'], total['distributed'])} ran to the end")
    print(f"  output {total['output']} ({pct(total['output'], cases)}), "
          f"step-budget stop {total['step budget']} ({pct(total['step budget'], cases)})")
    for group in ("parse errors", "Python errors"):
        items = sorted(((k.split(": ", 1)[1], n) for k, n in total.items() if k.startswith(group + ": ")),
                       key=lambda kv: -kv[1])
        n = sum(v for _, v in items)
        print(f"  {group}: {n} ({pct(n, cases)}): " + ", ".join(f"{k} {v}" for k, v in items))
    if failed:
        print(f"  failed seeds: {', '.join(map(str, failed))}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--cases", type=int, default=10000, help="cases per seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--first-seed", type=int, default=int(time.time()) % 1_000_000 * 1000)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "fuzz-campaign.jsonl"))
    ap.add_argument("--summarize", metavar="FILE", help="only print the summary of FILE")
    args = ap.parse_args()
    if args.summarize:
        with open(args.summarize) as f:
            summarize([json.loads(line) for line in f if line.strip()], None, [])
        return
    binary = test_binary()
    seeds = [args.first_seed + i for i in range(args.seeds)]
    print(f"fuzz campaign: {len(seeds)} seeds ({seeds[0]}..{seeds[-1]}) x {args.cases} cases, "
          f"{args.jobs} at a time, counts to {args.out}", flush=True)
    records, failed, started = [], [], time.time()
    pool = ThreadPoolExecutor(args.jobs)

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        with open(args.out, "a") as out:
            for seed, code, output, seconds in pool.map(lambda s: run_seed(binary, s, args.cases), seeds):
                counts = parse(output) if code == 0 else None
                if counts is None:
                    failed.append(seed)
                    print(f"seed {seed} FAILED (exit {code}):\n{output[-4000:]}", flush=True)
                    continue
                record = {"seed": seed, "cases": args.cases, "seconds": seconds, "counts": counts}
                out.write(json.dumps(record) + "\n")
                out.flush()
                records.append(record)
                print(f"seed {seed}: ok, {args.cases} cases in {seconds:.0f} s", flush=True)
    except KeyboardInterrupt:
        print("interrupted: the seeds still running are dropped", flush=True)
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in list(RUNNING):
            proc.kill()
    summarize(records, time.time() - started, failed)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
