#!/usr/bin/env python3
"""Record expected output for Pallas programs: real PyTorch + real JAX Pallas (interpret mode).

usage: python tools/record/pallas.py NAME.py|FOLDER...
       (a Python with torch==2.15.0, jax==0.10.2 and jaxlib==0.10.2; a folder stands for every NAME.py in it)
Runs each program with `device = "tpu"` changed to `device = "cpu"` and the stand-in
`torch_tpu` beside this script on the path; writes NAME.expected.
"""
import os, pathlib, subprocess, sys

here = pathlib.Path(__file__).resolve().parent
progs = []
for arg in map(pathlib.Path, sys.argv[1:]):
    progs += sorted(arg.glob("*.py")) if arg.is_dir() else [arg]
for prog in progs:
    src = prog.read_text().replace('device = "tpu"', 'device = "cpu"')
    env = dict(os.environ, PYTHONPATH=str(here), JAX_PLATFORMS="cpu")
    run = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, env=env, timeout=600)
    if run.returncode != 0:
        sys.exit(f"{prog}: failed\n{run.stderr[-3000:]}")
    prog.with_suffix(".expected").write_text(run.stdout)
    print(f"{prog.name}: {len(run.stdout.splitlines())} lines")
