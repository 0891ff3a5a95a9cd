# `os` as a program run by torchrun reads it: `environ` holds the variables of
# the process (for a rank of `tpu run --nproc-per-node N`, the ones torchrun
# sets: RANK, WORLD_SIZE, LOCAL_RANK, ...), put here by the interpreter before
# this file runs. Files, processes and paths are outside a playground.

sep = "/"
linesep = "\n"
name = "posix"


def getenv(key, default=None):
    return environ.get(key, default)


def cpu_count():
    return 1
