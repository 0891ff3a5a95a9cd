# Reading a distributed launch from environment variables the way torchrun
# sets them (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR), with defaults when
# unset, int conversion, a copied environment for a child process, and
# os.pathsep/os.linesep/os.cpu_count types.
import os


def dist_info(env):
    rank = int(env.get("RANK", -1))
    if rank == -1:
        return {"ddp": False, "rank": 0, "world_size": 1, "local_rank": 0, "master": None}
    return {
        "ddp": True,
        "rank": rank,
        "world_size": int(env["WORLD_SIZE"]),
        "local_rank": int(env.get("LOCAL_RANK", 0)),
        "master": f"{env.get('MASTER_ADDR', 'localhost')}:{env.get('MASTER_PORT', '29500')}",
    }


print(dist_info(os.environ))
child = dict(os.environ)
child.update(RANK="3", WORLD_SIZE="8", LOCAL_RANK="3", MASTER_ADDR="10.0.0.1")
print(dist_info(child))
print(dist_info({"RANK": "0", "WORLD_SIZE": "2"}))
print("RANK" in os.environ, "RANK" in child, os.environ.get("RANK") is None)
os.environ["OMP_NUM_THREADS"] = "4"
print(int(os.environ["OMP_NUM_THREADS"]) * 2, os.environ.pop("OMP_NUM_THREADS"), os.environ.get("OMP_NUM_THREADS", "unset"))
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")
print(os.environ["TOKENIZERS_PARALLELISM"])
try:
    os.environ["BAD"] = 1
except TypeError as e:
    print(type(e).__name__, e)
try:
    os.environ["DEFINITELY_NOT_SET_VAR"]
except KeyError as e:
    print(type(e).__name__, e)
flag = os.environ.get("USE_AMP", "0").lower() in ("1", "true", "yes")
print("USE_AMP:", flag, bool(os.environ.get("EMPTY_UNSET_VAR")))
print(os.pathsep, repr(os.linesep), os.name, isinstance(os.cpu_count(), int), isinstance(os.getpid(), int))
print(type(os.environ).__name__, isinstance(os.environ.copy(), dict), os.fspath("a/b"), os.path.expanduser("x/y"))
print(os.path.expandvars("$NOT_SET_VAR_XYZ/data"), os.path.join(os.curdir, "data"), os.pardir)
