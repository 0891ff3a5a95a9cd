"""Records what real CPython prints for the standard-library corpus
(`tests/corpus/stdlib/`): plain-Python programs, no torch.

    python tools/record/cpython.py tests/corpus/stdlib/NAME.py [...]
    python tools/record/cpython.py tests/corpus/stdlib/          # every program there
    python tools/record/cpython.py --check tests/corpus/stdlib/  # compare, write nothing
    python tools/record/cpython.py --python /path/to/python3.13 ...

The interpreter is CPython 3.13 from pyenv (the newest `3.13.*` under
`$(pyenv root)/versions`, or `~/.pyenv/versions`), unless `--python` names one.
Each program runs as `python NAME.py` from the folder it lives in, so
`sys.argv[0]` is the bare file name and `__name__` is `"__main__"` (`__file__`
is the absolute path, as CPython makes it; programs print only its basename),
in a clean environment: only `PATH`, `HOME` and `TMPDIR` are passed
through, plus `PYTHONHASHSEED=0`, `LC_ALL=C.UTF-8`, `LANG=C.UTF-8`, `TZ=UTC` and
`PYTHONDONTWRITEBYTECODE=1` (no `COLUMNS`, so argparse wraps help at 80 columns
when stdout is a pipe).

Each program runs three times; the three stdouts and exit statuses must be
identical (the determinism check), or nothing is recorded for it. What it
printed to stdout goes to `NAME.expected`; stderr is never recorded.

Exit status: a program must exit 0 (an uncaught `sys.exit(0)` at the end is an
ordinary success). A program that exits with any other status, or that writes a
Python traceback to stderr, records nothing and the script exits non-zero naming
it -- unless the program's folder holds `NAME.status` containing that very
status as a number (a program that deliberately ends with `sys.exit(n)`); then
its stdout is recorded as usual and `NAME.status` stays as the expected status.
The corpus's own programs all exit 0 and have no `.status` file.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys

RUNS = 3
TRACEBACK = "Traceback (most recent call last):"


def find_python():
    """The newest CPython 3.13 under pyenv."""
    roots = []
    pyenv = shutil.which("pyenv")
    if pyenv:
        try:
            out = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=True)
            roots.append(out.stdout.strip())
        except (OSError, subprocess.CalledProcessError):
            pass
    roots.append(os.path.expanduser("~/.pyenv"))
    found = []
    for root in roots:
        for candidate in glob.glob(os.path.join(root, "versions", "3.13.*", "bin", "python3.13")):
            version = os.path.basename(os.path.dirname(os.path.dirname(candidate)))
            parts = version.split(".")
            if len(parts) == 3 and parts[2].isdigit():
                found.append((int(parts[2]), candidate))
    if not found:
        sys.exit("no CPython 3.13 found under pyenv; pass --python PATH")
    return max(found)[1]


def environment():
    env = {k: os.environ[k] for k in ("PATH", "HOME", "TMPDIR") if k in os.environ}
    env.update(
        PYTHONHASHSEED="0",
        LC_ALL="C.UTF-8",
        LANG="C.UTF-8",
        TZ="UTC",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def run_once(python, path):
    folder = os.path.dirname(os.path.abspath(path))
    result = subprocess.run(
        [python, os.path.basename(path)],
        capture_output=True,
        cwd=folder,
        env=environment(),
        timeout=120,
    )
    return result.returncode, result.stdout, result.stderr.decode("utf-8", "replace")


def expected_status(path):
    status_file = path[: -len(".py")] + ".status"
    if os.path.exists(status_file):
        with open(status_file) as f:
            return int(f.read().strip())
    return 0


def record(python, path, check):
    runs = [run_once(python, path) for _ in range(RUNS)]
    status, stdout, stderr = runs[0]
    want = expected_status(path)
    if status != want:
        print(f"{path}: exited with status {status} (expected {want}):\n{stderr}", file=sys.stderr)
        return False
    if TRACEBACK in stderr:
        print(f"{path}: wrote a traceback:\n{stderr}", file=sys.stderr)
        return False
    for i, (other_status, other_stdout, _) in enumerate(runs[1:], start=2):
        if (other_status, other_stdout) != (status, stdout):
            print(f"{path}: run {i} differs from run 1 (not deterministic)", file=sys.stderr)
            return False
    expected = path[: -len(".py")] + ".expected"
    if check:
        try:
            with open(expected, "rb") as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old != stdout:
            print(f"{path}: output differs from {os.path.basename(expected)}", file=sys.stderr)
            return False
        return True
    with open(expected, "wb") as f:
        f.write(stdout)
    return True


def programs(args):
    """The programs named, a folder standing for every `NAME.py` in it."""
    for arg in args:
        if os.path.isdir(arg):
            yield from sorted(os.path.join(arg, n) for n in os.listdir(arg) if n.endswith(".py"))
        else:
            yield arg


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="programs or folders of programs")
    parser.add_argument("--python", help="the interpreter (default: CPython 3.13 under pyenv)")
    parser.add_argument("--check", action="store_true", help="compare with NAME.expected, write nothing")
    args = parser.parse_args(argv)
    python = args.python or find_python()
    version = subprocess.run([python, "-c", "import sys; print(sys.version)"], capture_output=True, text=True)
    print(f"{'checking' if args.check else 'recording'} with {python}: {version.stdout.strip()}", file=sys.stderr)
    paths = list(programs(args.paths))
    failed = [p for p in paths if not record(python, p, args.check)]
    for p in failed:
        print(f"FAILED: {p}", file=sys.stderr)
    print(f"{len(paths) - len(failed)} of {len(paths)} programs {'match' if args.check else 'recorded'}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
