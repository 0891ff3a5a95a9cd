#!/usr/bin/env python3
"""Record the .expected of distributed programs with real PyTorch (torchrun, gloo), each with its rank count.

usage: python tools/record/distributed.py [NAME.py | FOLDER ...]
       (default: tests/corpus/distributed/; a folder stands for every NAME.py in it but deadlock_*)

Each program states the number of ranks it runs with in its first line, `# nproc: N`
(without one: 4, as the shared corpus was recorded). This calls the shared corpus's
oracle_dist.py record() (torchrun --standalone, gloo, CPU, `device = "tpu"` replaced by
"cpu"), which writes nothing itself; this writes NAME.expected next to the program.
deadlock_*.py are never recorded: real PyTorch hangs on them. The oracle is
../shared/conformance/oracle_dist.py beside the repository, or $TPU_SHARED_DIR/oracle_dist.py,
or ORACLE_DIST.
"""
import importlib.util, os, pathlib, re, sys

REPO = pathlib.Path(__file__).resolve().parents[2]
SHARED = pathlib.Path(os.environ.get("TPU_SHARED_DIR") or REPO.parent / "shared" / "conformance")
ORACLE = pathlib.Path(os.environ.get("ORACLE_DIST", SHARED / "oracle_dist.py"))
DEFAULT = REPO / "tests" / "corpus" / "distributed"


def nproc_of(prog: pathlib.Path) -> int:
    first = (prog.read_text().splitlines() or [""])[0]
    m = re.fullmatch(r"#\s*nproc:\s*(\d+)\s*", first)
    return int(m.group(1)) if m else 4


def programs(args):
    for arg in map(pathlib.Path, args or [DEFAULT]):
        if arg.is_dir():
            yield from sorted(p for p in arg.glob("*.py") if not p.name.startswith("deadlock_")
                              and p.name != "mismatch_deadlock.py")
        else:
            yield arg.resolve()


def main() -> None:
    spec = importlib.util.spec_from_file_location("oracle_dist", ORACLE)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    for prog in programs(sys.argv[1:]):
        if prog.name.startswith("deadlock_") or prog.name == "mismatch_deadlock.py":
            raise SystemExit(f"{prog.name}: deadlock programs hang under real PyTorch; not recorded")
        n = nproc_of(prog)
        text = oracle.record(n, prog)
        prog.with_suffix(".expected").write_text(text)
        print(f"{prog.name}: nproc {n}, {len(text.splitlines())} lines")


if __name__ == "__main__":
    main()
