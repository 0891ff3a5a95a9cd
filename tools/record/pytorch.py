"""Records what real PyTorch prints for corpus programs: the single-device,
CNN and torch.compile corpora (torch.compile runs in the same real PyTorch, with
its default CPU compiler, so it needs no oracle of its own).

Run with PyTorch 2.15 installed (the test command itself never needs it):

    python tools/record/pytorch.py tests/corpus/single/NAME.py [...]
    python tools/record/pytorch.py tests/corpus/compile/     # every program there

Each program runs as written except that its `device = "tpu"` line becomes
`device = "cpu"`, in its own process (a fresh RNG and a fresh interpreter), from
the folder it lives in; what it prints goes to `NAME.expected`. It runs as
`python -c SOURCE`, except a program that starts processes
(`torch.multiprocessing`): their "spawn" start method runs the main module
again from its file, so that one runs as `python NAME.py` from a copy in a
temporary folder. A program that
raises records nothing and the script exits non-zero, since a corpus program's
output must be the whole run.
"""

import os
import subprocess
import sys
import tempfile


def record(path):
    with open(path) as f:
        source = f.read()
    if 'device = "tpu"' in source:
        source = source.replace('device = "tpu"', 'device = "cpu"')
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", source]
        if "multiprocessing" in source:
            copy = os.path.join(folder, os.path.basename(path))
            with open(copy, "w") as f:
                f.write(source)
            command = [sys.executable, copy]
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=os.path.dirname(os.path.abspath(path)),
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    if result.returncode != 0:
        print(f"{path}: the program failed under real PyTorch:\n{result.stderr}", file=sys.stderr)
        return False
    with open(path[: -len(".py")] + ".expected", "w") as f:
        f.write(result.stdout)
    return True


def programs(args):
    """The programs named, a folder standing for every `NAME.py` in it."""
    for arg in args:
        if os.path.isdir(arg):
            yield from sorted(os.path.join(arg, n) for n in os.listdir(arg) if n.endswith(".py"))
        else:
            yield arg


def main(args):
    failed = [p for p in programs(args) if not record(p)]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
