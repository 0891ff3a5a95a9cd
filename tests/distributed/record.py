#!/usr/bin/env python3
"""Record the .expected of programs in this folder with real PyTorch, each with its own rank count.

usage: /work/torchvenv/bin/python record.py [NAME.py ...]   (default: every NAME.py here but deadlock_*)

Each program states the number of ranks it runs with in its first line, `# nproc: N`.
This reads N and calls oracle_dist.py's record() (torchrun --standalone, gloo, CPU,
`device = "tpu"` replaced by "cpu"), which writes nothing itself; this writes NAME.expected
next to the program. deadlock_*.py are never recorded: real PyTorch hangs on them.
ORACLE_DIST may name oracle_dist.py elsewhere than /work/shared/conformance.
"""
import importlib.util, os, pathlib, re, sys

HERE = pathlib.Path(__file__).resolve().parent
ORACLE = pathlib.Path(os.environ.get("ORACLE_DIST", "/work/shared/conformance/oracle_dist.py"))


def nproc_of(prog: pathlib.Path) -> int:
    first = prog.read_text().splitlines()[0]
    m = re.fullmatch(r"#\s*nproc:\s*(\d+)\s*", first)
    if not m:
        raise SystemExit(f"{prog.name}: first line must be `# nproc: N`, is {first!r}")
    return int(m.group(1))


def main() -> None:
    spec = importlib.util.spec_from_file_location("oracle_dist", ORACLE)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    progs = [pathlib.Path(a).resolve() for a in sys.argv[1:]] or sorted(
        p for p in HERE.glob("*.py") if p.name != "record.py" and not p.name.startswith("deadlock_"))
    for prog in progs:
        if prog.name.startswith("deadlock_"):
            raise SystemExit(f"{prog.name}: deadlock programs hang under real PyTorch; not recorded")
        n = nproc_of(prog)
        text = oracle.record(n, prog)
        prog.with_suffix(".expected").write_text(text)
        print(f"{prog.name}: nproc {n}, {len(text.splitlines())} lines")


if __name__ == "__main__":
    main()
