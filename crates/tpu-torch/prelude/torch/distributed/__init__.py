# torch.distributed as distributed_c10d.py has it, over the run's world: with
# `tpu run --nproc-per-node N` every rank runs this program, and collectives
# meet in the world (`torch._C.dist_*`, tpu-runtime's distributed.rs). The
# process groups are c10d's: the default group of every rank, and `new_group`s
# that every rank creates in the same order. Collectives take effect when
# waited for: at once without `async_op`, at `Work.wait()` with it.
import os

import torch
_C = torch._C


def is_available():
    return True


def is_nccl_available():
    return False


def is_gloo_available():
    return True


class _RedOp:
    def __init__(self, name, value):
        self._name = name
        self._value = value

    def __repr__(self):
        return "<RedOpType." + self._name + ": " + str(self._value) + ">"

    def __str__(self):
        return "RedOpType." + self._name

    def __eq__(self, other):
        return isinstance(other, _RedOp) and other._name == self._name

    def __hash__(self):
        return self._value


class ReduceOp:
    SUM = _RedOp("SUM", 0)
    AVG = _RedOp("AVG", 1)
    PRODUCT = _RedOp("PRODUCT", 2)
    MIN = _RedOp("MIN", 3)
    MAX = _RedOp("MAX", 4)
    BAND = _RedOp("BAND", 5)
    BOR = _RedOp("BOR", 6)
    BXOR = _RedOp("BXOR", 7)
    RedOpType = _RedOp


class Backend:
    UNDEFINED = "undefined"
    GLOO = "gloo"
    NCCL = "nccl"
    UCC = "ucc"
    MPI = "mpi"

    def __new__(cls, name):
        return name.lower()


class ProcessGroup:
    def __init__(self, gid, ranks, backend):
        self._gid = gid
        self._ranks = list(ranks)
        self._backend = backend

    def rank(self):
        return self._ranks.index(_seat()[0])

    def size(self):
        return len(self._ranks)

    def name(self):
        return str(self._gid)

    def __repr__(self):
        return "<torch.distributed.distributed_c10d.ProcessGroup object>"


class GroupMember:
    WORLD = None
    # c10d's marker for "this rank is not in the group" is the int -100.
    NON_GROUP_MEMBER = -100


class _Groups:
    WORLD = None


# `dist.group.WORLD`; functions below take a parameter named `group`, so the
# module keeps this class under a second name too.
group = _Groups


class Work:
    def __init__(self, handle, on_done=None):
        self._handle = handle
        self._on_done = on_done
        self._waited = False
        self._source = None

    def wait(self, timeout=None):
        if not self._waited:
            self._waited = True
            if self._handle is not None:
                self._source = _C.dist_wait(self._handle)
            if self._on_done is not None:
                self._on_done()
        return True

    def is_completed(self):
        return self._waited or self._handle is None or _C.dist_is_completed(self._handle)

    def is_success(self):
        return self.is_completed()

    def _source_rank(self):
        return self._source

    def __repr__(self):
        return "<torch.distributed.distributed_c10d.Work object>"


_state = {"backend": None, "groups": [], "cause": None, "comm_modes": []}

# The type names PyTorch's cast errors use.
_TYPE_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.bfloat16: "BFloat16", torch.float16: "Half",
               torch.int64: "Long", torch.int32: "Int", torch.uint8: "Byte",
               torch.bool: "Bool"}


def _seat():
    seat = _C.dist_seat()
    if seat is None:
        raise ValueError(
            "Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, "
            "but not set")
    return seat


def _default_group():
    if GroupMember.WORLD is None:
        raise ValueError(
            "Default process group has not been initialized, please make sure to call init_process_group.")
    return GroupMember.WORLD


def init_process_group(backend=None, init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    if GroupMember.WORLD is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if backend is not None:
        name = str(backend).lower()
        if name == "nccl":
            # What PyTorch says on a machine without CUDA; the ranks here run
            # on the simulated TPU slice (backend omitted, "gloo" or "tpu_dist").
            raise RuntimeError("nccl2 requires at least one CUDA device")
        if name not in ("gloo", "tpu_dist", "cpu:gloo", "tpu:tpu_dist"):
            raise AssertionError("Unknown backend type " + str(backend))
        _state["backend"] = "gloo" if "gloo" in name else "tpu_dist"
    else:
        _state["backend"] = "undefined"
    if store is None and (init_method is None or str(init_method).startswith("env://")):
        # The env:// rendezvous reads what it was not given.
        needed = ([] if rank != -1 else ["RANK"]) + ([] if world_size != -1 else ["WORLD_SIZE"])
        for name in needed + ["MASTER_ADDR", "MASTER_PORT"]:
            if name not in os.environ:
                raise ValueError("Error initializing torch.distributed using env:// rendezvous: environment variable "
                                 + name + " expected, but not set")
    rank_, size = _seat()
    if rank != -1 and rank != rank_:
        raise ValueError("rank " + str(rank) + " does not match this process's rank, " + str(rank_)
                         + " (the order in which it was started)")
    if world_size != -1 and world_size != size:
        raise ValueError("world_size " + str(world_size) + " does not match the " + str(size)
                         + " ranks this program was launched with (--nproc-per-node)")
    world = ProcessGroup(0, range(size), _state["backend"])
    GroupMember.WORLD = world
    _Groups.WORLD = world
    _C.dist_set_initialized(True)


def is_initialized():
    return GroupMember.WORLD is not None


def is_torchelastic_launched():
    return os.getenv("TORCHELASTIC_RUN_ID") is not None


def destroy_process_group(group=None):
    if GroupMember.WORLD is None:
        raise AssertionError("Process group cannot be None")
    if group is None or group is GroupMember.WORLD:
        GroupMember.WORLD = None
        _Groups.WORLD = None
        _state["groups"] = []
        _C.dist_set_initialized(False)


def get_backend(group=None):
    g = _resolve(group)
    return g._backend


def _resolve(group):
    if group is None or group is GroupMember.WORLD:
        return _default_group()
    _default_group()
    if not isinstance(group, ProcessGroup):
        if group == GroupMember.NON_GROUP_MEMBER:
            raise ValueError("Invalid process group specified")
        raise ValueError("Process group " + str(group)
                         + " is not initialized in the world group map. Please initialize the group first.")
    return group


def _member(group):
    """The resolved group, or None when this rank is not in it (c10d then
    skips the call with a warning)."""
    if isinstance(group, int) and group == GroupMember.NON_GROUP_MEMBER:
        _default_group()
        return None
    g = _resolve(group)
    if _seat()[0] not in g._ranks:
        return None
    return g


def get_rank(group=None):
    if isinstance(group, int) and group == GroupMember.NON_GROUP_MEMBER:
        return -1
    g = _resolve(group)
    me = _seat()[0]
    return g._ranks.index(me) if me in g._ranks else -1


def get_world_size(group=None):
    if isinstance(group, int) and group == GroupMember.NON_GROUP_MEMBER:
        return -1
    return len(_resolve(group)._ranks)


def get_process_group_ranks(group):
    return list(_resolve(group)._ranks)


def get_global_rank(group, group_rank):
    g = _resolve(group)
    if group_rank < 0 or group_rank >= len(g._ranks):
        raise ValueError("Group rank " + str(group_rank) + " is not part of group " + repr(g))
    return g._ranks[group_rank]


def get_group_rank(group, global_rank):
    g = _resolve(group)
    if global_rank not in g._ranks:
        raise ValueError("Global rank " + str(global_rank) + " is not part of group " + repr(g))
    return g._ranks.index(global_rank)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None, device_id=None):
    world = _default_group()
    ranks = sorted(ranks) if ranks is not None else list(world._ranks)
    for r in ranks:
        if r < 0 or r >= len(world._ranks):
            raise ValueError("Rank " + str(r) + " is out of range. Valid ranks are 0 to "
                             + str(len(world._ranks) - 1) + " (world_size=" + str(len(world._ranks)) + ")")
    if len(set(ranks)) != len(ranks):
        raise ValueError("ranks list must not contain duplicate entries, got " + str(ranks))
    gid = _C.dist_new_group(ranks)
    g = ProcessGroup(gid, ranks, backend.lower() if isinstance(backend, str) else world._backend)
    _state["groups"].append(g)
    if _seat()[0] not in ranks:
        return GroupMember.NON_GROUP_MEMBER
    return g


def _check_tensor(t, name):
    if not isinstance(t, torch.Tensor):
        raise TypeError("Invalid function argument. Expected parameter `" + name + "` of type torch.Tensor\n"
                        "             but got " + str(type(t)) + " instead.")


def _check_list(ts, name):
    if not isinstance(ts, list) or not all(isinstance(t, torch.Tensor) for t in ts):
        raise TypeError("Invalid function argument. Expected parameter `" + name
                        + "` of type List[torch.Tensor]\n             but got " + str(type(ts)) + " instead.")


def _op_name(op, tensor=None):
    if not isinstance(op, _RedOp):
        raise ValueError("Invalid ReduceOp: " + repr(op))
    # gloo refuses these at once, on every rank, before communicating.
    if tensor is not None:
        if op._name == "AVG" and not tensor.is_floating_point():
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               + _TYPE_NAMES[tensor.dtype])
        if op._name in ("BAND", "BOR", "BXOR") and tensor.is_floating_point():
            raise RuntimeError("Cannot use ReduceOp." + op._name + " with non-integral dtype")
    return op._name


def _run(fname, kind, g, input, outputs, op="SUM", src=0, in_splits=None, out_splits=None, async_op=False,
         cause=None, on_done=None, grads_of=None):
    if cause is None:
        # What the library calling this named (DTensor, FSDP), if anything.
        cause = _state["cause"]
    for mode in _state["comm_modes"]:
        mode._count(fname)
    handle = _C.dist_collective(fname, kind, g._gid, input, outputs, op, src, in_splits, out_splits, cause,
                                grads_of)
    work = Work(handle, on_done)
    if async_op:
        return work
    work.wait()
    return None


def _check_root(src, g, fname):
    if not isinstance(src, int):
        raise TypeError("Invalid root: " + repr(src))
    if src < 0 or src >= get_world_size():
        raise RuntimeError("ProcessGroupGloo::" + fname + ": invalid root rank: " + str(src))
    if src not in g._ranks:
        raise ValueError("Global rank " + str(src) + " is not part of group " + repr(g))


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ")"


def _check_gather_outputs(outputs, input, n):
    """gloo's allgather checks: W outputs, each of the input's shape and dtype."""
    if len(outputs) != n:
        raise RuntimeError("ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length "
                           + str(n) + ", got " + str(len(outputs)) + ")")
    for i, t in enumerate(outputs):
        if t.shape != input.shape:
            raise RuntimeError("ProcessGroupGloo::allgather: invalid tensor size at index " + str(i)
                               + " (expected " + _shape_text(input.shape) + ", got " + _shape_text(t.shape) + ")")


def all_reduce(tensor, op=ReduceOp.SUM, group=None, async_op=False):
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    return _run("all_reduce", "all_reduce", g, tensor, [tensor], _op_name(op, tensor), async_op=async_op)


def broadcast(tensor, src=None, group=None, async_op=False, group_src=None):
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    if group_src is not None:
        src = g._ranks[group_src]
    _check_root(src, g, "broadcast")
    return _run("broadcast", "broadcast", g, tensor, [tensor], src=src, async_op=async_op)


# The object collectives, as c10d runs them: each object pickled into a
# uint8 tensor, the sizes sent first, then the bytes padded to the largest.
def _object_bytes(obj):
    import io
    import pickle
    buffer = io.BytesIO()
    pickle.Pickler(buffer).dump(obj)
    return list(buffer.getvalue())


def _object_of(tensor, size):
    import io
    import pickle
    return pickle.Unpickler(io.BytesIO(bytes(tensor[:size].tolist()))).load()


def all_gather_object(object_list, obj, group=None):
    if _member(group) is None:
        return
    data = _object_bytes(obj)
    n = get_world_size(group)
    sizes = [torch.zeros(1, dtype=torch.long) for _ in range(n)]
    all_gather(sizes, torch.tensor([len(data)], dtype=torch.long), group=group)
    largest = int(max(s.item() for s in sizes))
    mine = torch.tensor(data + [0] * (largest - len(data)), dtype=torch.uint8)
    outputs = [torch.empty(largest, dtype=torch.uint8) for _ in range(n)]
    all_gather(outputs, mine, group=group)
    for i, tensor in enumerate(outputs):
        object_list[i] = _object_of(tensor, int(sizes[i].item()))


def broadcast_object_list(object_list, src=None, group=None, device=None, group_src=None):
    if _member(group) is None:
        return
    src = 0 if src is None and group_src is None else src
    me = get_rank()
    if me == src:
        pickled = [_object_bytes(o) for o in object_list]
        sizes = torch.tensor([len(p) for p in pickled], dtype=torch.long)
    else:
        sizes = torch.empty(len(object_list), dtype=torch.long)
    broadcast(sizes, src=src, group=group, group_src=group_src)
    total = int(sizes.sum().item())
    if me == src:
        data = torch.tensor([b for p in pickled for b in p], dtype=torch.uint8)
    else:
        data = torch.empty(total, dtype=torch.uint8)
    broadcast(data, src=src, group=group, group_src=group_src)
    if me != src:
        offset = 0
        for i, size in enumerate(sizes.tolist()):
            object_list[i] = _object_of(data[offset:offset + size], size)
            offset += size


def gather_object(obj, object_gather_list=None, dst=None, group=None, group_dst=None):
    if _member(group) is None:
        return
    dst = 0 if dst is None and group_dst is None else dst
    data = _object_bytes(obj)
    n = get_world_size(group)
    sizes = [torch.zeros(1, dtype=torch.long) for _ in range(n)]
    all_gather(sizes, torch.tensor([len(data)], dtype=torch.long), group=group)
    largest = int(max(s.item() for s in sizes))
    mine = torch.tensor(data + [0] * (largest - len(data)), dtype=torch.uint8)
    here = get_rank() == dst
    outputs = [torch.empty(largest, dtype=torch.uint8) for _ in range(n)] if here else None
    gather(mine, gather_list=outputs, dst=dst, group=group, group_dst=group_dst)
    if here:
        for i, tensor in enumerate(outputs):
            object_gather_list[i] = _object_of(tensor, int(sizes[i].item()))


def scatter_object_list(scatter_object_output_list, scatter_object_input_list=None, src=None, group=None,
                        group_src=None):
    if _member(group) is None:
        return
    if not isinstance(scatter_object_output_list, list) or len(scatter_object_output_list) < 1:
        raise ValueError("Expected argument scatter_object_output_list to be a list of size at least 1.")
    src = 0 if src is None and group_src is None else src
    here = get_rank() == src
    largest = torch.zeros(1, dtype=torch.long)
    if here:
        pickled = [_object_bytes(o) for o in scatter_object_input_list]
        largest[0] = max(len(p) for p in pickled)
    broadcast(largest, src=src, group=group, group_src=group_src)
    width = int(largest.item())
    if here:
        pieces = [torch.tensor(p + [0] * (width - len(p)), dtype=torch.uint8) for p in pickled]
        sizes = [torch.tensor([len(p)], dtype=torch.long) for p in pickled]
    else:
        pieces, sizes = None, None
    mine = torch.empty(width, dtype=torch.uint8)
    scatter(mine, scatter_list=pieces, src=src, group=group, group_src=group_src)
    size = torch.zeros(1, dtype=torch.long)
    scatter(size, scatter_list=sizes, src=src, group=group, group_src=group_src)
    scatter_object_output_list[0] = _object_of(mine, int(size.item()))


def all_gather(tensor_list, tensor, group=None, async_op=False):
    _check_list(tensor_list, "tensor_list")
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    for t in tensor_list:
        if t.dtype != tensor.dtype:
            raise ValueError("Invalid usage of tensors with different dtypesFound " + str(t.dtype) + " and  "
                             + str(tensor.dtype))
    _check_gather_outputs(tensor_list, tensor, len(g._ranks))
    return _run("all_gather", "all_gather", g, tensor, tensor_list, async_op=async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    _check_tensor(output_tensor, "output_tensor")
    _check_tensor(input_tensor, "input_tensor")
    g = _member(group)
    if g is None:
        return None
    # gloo splits the output into W chunks along dim 0, each of the input's shape.
    _check_gather_outputs(list(output_tensor.chunk(len(g._ranks))), input_tensor, len(g._ranks))
    if output_tensor.dtype != input_tensor.dtype:
        raise RuntimeError("ProcessGroupGloo::allgather: invalid tensor type at index 0 (expected "
                           + str(input_tensor.dtype) + ", got " + str(output_tensor.dtype) + ")")
    return _run("all_gather_into_tensor", "all_gather", g, input_tensor, [output_tensor], async_op=async_op)


def reduce_scatter_tensor(output, input, op=ReduceOp.SUM, group=None, async_op=False):
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    g = _member(group)
    if g is None:
        return None
    n = len(g._ranks)
    out0 = output.shape[0] if output.dim() > 0 else 1
    in0 = input.shape[0] if input.dim() > 0 else 1
    if out0 * n != in0 or output.numel() * n != input.numel():
        raise RuntimeError("[rank" + str(_seat()[0]) + "]: ProcessGroupGloo: Check failed: "
                           "outputShape[0] * worldSize == inputShape[0] (" + str(out0 * n) + " vs. " + str(in0) + "). ")
    if output.dtype != input.dtype:
        raise TypeError("input tensor must be the same type as the output tensor.")
    return _run("reduce_scatter_tensor", "reduce_scatter", g, input, [output], _op_name(op, input),
                async_op=async_op)


def reduce_scatter(output, input_list, op=ReduceOp.SUM, group=None, async_op=False):
    _check_tensor(output, "output")
    _check_list(input_list, "input_list")
    g = _member(group)
    if g is None:
        return None
    flat = torch.cat([t.reshape(-1) for t in input_list])
    if len(input_list) != len(g._ranks) or flat.numel() != output.numel() * len(g._ranks):
        raise RuntimeError("ProcessGroupGloo::reduce_scatter: invalid tensor list (expected "
                           + str(len(g._ranks)) + " tensors of " + str(output.numel()) + " elements)")
    return _run("reduce_scatter", "reduce_scatter", g, flat, [output], _op_name(op, output), async_op=async_op)


def reduce(tensor, dst=None, op=ReduceOp.SUM, group=None, async_op=False, group_dst=None):
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    if group_dst is not None:
        dst = g._ranks[group_dst]
    _check_root(dst, g, "reduce")
    # Every member ends with the reduction (c10d leaves the others' tensors
    # unspecified; gloo's hold the same).
    return _run("reduce", "all_reduce", g, tensor, [tensor], _op_name(op, tensor), async_op=async_op)


def gather(tensor, gather_list=None, dst=None, group=None, async_op=False, group_dst=None):
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    if group_dst is not None:
        dst = g._ranks[group_dst]
    if dst is None:
        dst = g._ranks[0]
    _check_root(dst, g, "gather")
    me = _seat()[0]
    if me == dst:
        if gather_list is None:
            raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
        _check_gather_outputs(gather_list, tensor, len(g._ranks))
        outputs = gather_list
    else:
        if gather_list:
            raise ValueError("Argument ``gather_list`` must NOT be specified on non-destination ranks.")
        outputs = []
    return _run("gather", "all_gather", g, tensor, outputs, async_op=async_op)


def scatter(tensor, scatter_list=None, src=None, group=None, async_op=False, group_src=None):
    _check_tensor(tensor, "tensor")
    g = _member(group)
    if g is None:
        return None
    if group_src is not None:
        src = g._ranks[group_src]
    if src is None:
        src = g._ranks[0]
    _check_root(src, g, "scatter")
    n = len(g._ranks)
    me = _seat()[0]
    if me == src:
        if scatter_list is None:
            raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
        flat = torch.cat([t.reshape(-1) for t in scatter_list])
    else:
        if scatter_list:
            raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source ranks.")
        flat = torch.empty(n * tensor.numel(), dtype=tensor.dtype, device=tensor.device)
    # The source's list reaches every member, which keeps its own part.
    mine = g._ranks.index(me)

    def keep():
        tensor.copy_(flat[mine * tensor.numel():(mine + 1) * tensor.numel()].reshape(tensor.shape))

    return _run("scatter", "broadcast", g, flat, [flat], src=src, async_op=async_op, on_done=keep)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,
                      async_op=False):
    _check_tensor(output, "output")
    _check_tensor(input, "input")
    g = _member(group)
    if g is None:
        return None
    n = len(g._ranks)
    for splits in (input_split_sizes, output_split_sizes):
        if splits is not None and len(splits) != n:
            raise RuntimeError("Number of tensor splits not equal to group size")
    if input_split_sizes is None and input.shape[0] % n != 0:
        raise RuntimeError("Tensor's dim 0 does not divide equally across group size")
    if input_split_sizes is not None and sum(input_split_sizes) != input.shape[0]:
        raise RuntimeError("Split sizes doesn't match total dim 0 size")
    if output_split_sizes is not None and sum(output_split_sizes) != output.shape[0]:
        raise RuntimeError("Split sizes doesn't match total dim 0 size")
    return _run("all_to_all_single", "all_to_all", g, input, [output],
                in_splits=list(input_split_sizes) if input_split_sizes is not None else None,
                out_splits=list(output_split_sizes) if output_split_sizes is not None else None,
                async_op=async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    _check_list(output_tensor_list, "output_tensor_list")
    _check_list(input_tensor_list, "input_tensor_list")
    g = _member(group)
    if g is None:
        return None
    flat_in = torch.cat([t.reshape(-1) for t in input_tensor_list])
    flat_out = torch.empty(sum(t.numel() for t in output_tensor_list), dtype=flat_in.dtype, device=flat_in.device)

    def unpack():
        offset = 0
        for t in output_tensor_list:
            t.copy_(flat_out[offset:offset + t.numel()].reshape(t.shape))
            offset += t.numel()

    return _run("all_to_all", "all_to_all", g, flat_in, [flat_out],
                in_splits=[t.numel() for t in input_tensor_list],
                out_splits=[t.numel() for t in output_tensor_list], async_op=async_op, on_done=unpack)


def barrier(group=None, async_op=False, device_ids=None):
    g = _member(group)
    if g is None:
        return None
    return _run("barrier", "barrier", g, None, [], async_op=async_op)


def _peer(peer, group, group_peer, what):
    if group_peer is not None:
        peer = _resolve(group)._ranks[group_peer]
    if peer is None:
        raise ValueError(what + " must be specified")
    if peer < 0 or peer >= get_world_size():
        raise ValueError("Invalid " + what + " rank: " + str(peer))
    if peer == get_rank():
        full = "destination" if what == "dst" else "source"
        raise ValueError("Invalid " + full + " rank: " + full
                         + " rank should not be the same as the rank of the current process.")
    return peer


def isend(tensor, dst=None, group=None, tag=0, group_dst=None):
    _check_tensor(tensor, "tensor")
    dst = _peer(dst, group, group_dst, "dst")
    return Work(_C.dist_send(tensor, dst, tag))


def send(tensor, dst=None, group=None, tag=0, group_dst=None):
    isend(tensor, dst, group, tag, group_dst).wait()


def irecv(tensor, src=None, group=None, tag=0, group_src=None):
    _check_tensor(tensor, "tensor")
    if src is not None or group_src is not None:
        src = _peer(src, group, group_src, "src")
    return Work(_C.dist_recv(tensor, src, tag))


def recv(tensor, src=None, group=None, tag=0, group_src=None):
    work = irecv(tensor, src, group, tag, group_src)
    work.wait()
    return work._source_rank() if src is None else src


class P2POp:
    def __init__(self, op, tensor, peer=None, group=None, tag=0, group_peer=None):
        self.op = op
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag
        self.group_peer = group_peer


def batch_isend_irecv(p2p_op_list):
    works = []
    for p in p2p_op_list:
        works.append(p.op(p.tensor, p.peer, p.group, p.tag))
    return works
