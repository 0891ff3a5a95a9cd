#!/usr/bin/env python3
"""The `tpu bench` workloads in PyTorch on this machine, beside the reference backend.

usage: tools/bench_pytorch.py [--tpu target/release/tpu] [--steps 4]
Needs torch 2.15 (not part of the test command). For 1 and 2 threads
(`torch.set_num_threads`, and `TPU_THREADS` for the reference backend) it
measures each workload's per-step wall time as `tpu bench` does (a run of
1 + steps steps minus a run of 1 step, divided by steps) in PyTorch's CPU
backend, runs `tpu bench --backend cpu --json` at the same thread count, and
prints the times and the ratios. Measured time on this machine, not simulated.
"""
import argparse
import contextlib
import io
import json
import os
import pathlib
import subprocess
import time

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKLOADS = {
    "mlp_train_step": ("crates/tpu-cli/src/bench/mlp.py", dict(BATCH=256, D_IN=512, D_HIDDEN=2048)),
    "transformer_block_fwd_bwd": (
        "crates/tpu-cli/src/bench/transformer.py",
        dict(BATCH=8, TOKENS=128, WIDTH=256, HEADS=4),
    ),
    "cnn_train_step": ("crates/tpu-cli/src/bench/cnn.py", dict(BATCH=32, CH=32, SIZE=32)),
}


def program(path, params, steps):
    head = f"STEPS = {steps}\nCOMPILED = False\n" + "".join(f"{k} = {v}\n" for k, v in params.items())
    return head + (ROOT / path).read_text().replace('device = "tpu"', 'device = "cpu"')


def timed(source):
    with contextlib.redirect_stdout(io.StringIO()):
        start = time.perf_counter()
        exec(compile(source, "bench", "exec"), {"__name__": "bench"})
        return time.perf_counter() - start


def pytorch_ms(path, params, steps):
    timed(program(path, params, 1))  # warms up the allocator and the kernels
    short = timed(program(path, params, 1))
    long = timed(program(path, params, 1 + steps))
    return (long - short) / steps * 1e3


def tpu_bench(tpu, steps, threads):
    env = dict(os.environ, TPU_THREADS=str(threads))
    out = subprocess.run(
        [tpu, "bench", "--backend", "cpu", "--json", "--steps", str(steps)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout
    return {line["name"]: line for line in map(json.loads, out.splitlines())}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tpu", default=str(ROOT / "target" / "release" / "tpu"))
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args()
    print(f"torch {torch.__version__}; wall time per step on this machine (not simulated)")
    print(f"{'workload':<27} {'threads':>7} {'pytorch ms':>10} {'strict ms':>10} {'fused ms':>10} {'fused / pytorch':>15}")
    for threads in (1, 2):
        torch.set_num_threads(threads)
        ours = tpu_bench(args.tpu, args.steps, threads)
        for name, (path, params) in WORKLOADS.items():
            theirs = pytorch_ms(path, params, args.steps)
            line = ours[name]
            print(
                f"{name:<27} {threads:>7} {theirs:>10.1f} {line['strict_ms']:>10.1f} "
                f"{line['fused_ms']:>10.1f} {line['fused_ms'] / theirs:>14.2f}x"
            )


if __name__ == "__main__":
    main()
