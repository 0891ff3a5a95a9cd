# torch.distributed.fsdp: FSDP2's `fully_shard`. Each call makes one parameter
# group: the module's parameters that no module inside it already manages.
# Between steps each parameter is a DTensor sharded on dim 0 across the mesh
# (HSDP: replicated across the first dimension of a 2-D mesh and sharded
# across the second), so a rank keeps 1/N of it. Before the module's forward
# one all-gather makes the group's whole parameters (plain Parameters, what
# the forward computes with); after the forward they are sharded again unless
# `reshard_after_forward` is False (the root's default), and gathered again
# before backward (with `reshard_after_forward=<int>` each rank keeps 1/int
# of them after forward, and groups of int ranks gather them back). After backward one reduce-scatter gives each rank its shard
# of the gradients, averaged over the data-parallel ranks (with HSDP an
# all-reduce across the replicas follows), and the optimiser steps the sharded
# parameters. The module's class becomes `FSDP<Name>`, as PyTorch's does.
#
# What differs from PyTorch: the gathered parameters are not freed (the
# forward's autograd graph keeps them, as it keeps any saved tensor here), so
# the all-gather before backward is issued for what it costs on the slice,
# at the start of backward (all of them, latest module first, as a
# prefetching FSDP would), not for its values; and the gradients' reduce-
# scatters run when backward has finished, each placed on the simulated
# timeline where backward made the group's last gradient (as DDP's buckets).
#
# At each phase (before the root's forward, after each group's all-gather and
# forward, at backward start and end, after each reduce-scatter, after an
# optimiser step) each rank notes what its chip holds, by kind, as PyTorch's
# FSDPMemTracker counts it; gathered parameters count while FSDP holds them
# (resharding frees them in PyTorch, so here they stop counting then).
import torch
import torch.nn as nn
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Shard, Replicate, _Spec, _chunk_sizes, _with_cause

_classes = {}
_C = torch._C

# Every fully_shard group in the order they were made, the optimisers that
# stepped since (their state is memory too), and how many steps they took.
_states = []
_optimizers = []
_steps = [0]


def _local(t):
    return t._local_tensor if isinstance(t, DTensor) else t


def _note_memory(phase, state=None):
    params, grads, gathered, held = [], [], [], []
    for s in _states:
        for p in s.params:
            params.append(_local(p.sharded))
            if p.sharded.grad is not None:
                grads.append(_local(p.sharded.grad))
            whole = p.unsharded
            if whole is None:
                continue
            if whole.grad is not None:
                grads.append(whole.grad)
            (gathered if s.unsharded or s.gathered_for_backward else held).append(whole)
        if s.post_forward_shard is not None:
            gathered.extend(s.post_forward_shard)
    optimizer_state = []
    for optimizer in _optimizers:
        for per_param in optimizer.state.values():
            for value in per_param.values():
                if isinstance(value, torch.Tensor):
                    optimizer_state.append(_local(value))
    _C.dist_note_memory(phase, None if state is None else state.name, _steps[0], params, grads, optimizer_state,
                        gathered, held)


def _after_optimizer_step(optimizer, args, kwargs):
    if optimizer not in _optimizers:
        _optimizers.append(optimizer)
    _steps[0] += 1
    _note_memory("after optimizer step")


def _fsdp_class(cls):
    if not issubclass(cls, FSDPModule):
        if cls not in _classes:
            _classes[cls] = type("FSDP" + cls.__name__, (FSDPModule, cls), {})
        return _classes[cls]
    return cls


class _Param:
    # One managed parameter: where it lives and its shard.
    def __init__(self, owner, name, sharded, full_shape, sizes, chunk):
        self.owner = owner
        self.name = name
        self.sharded = sharded
        self.full_shape = full_shape
        self.sizes = sizes
        self.chunk = chunk
        self.unsharded = None

    def row(self):
        n = 1
        for s in self.full_shape[1:]:
            n *= s
        return n


class _State:
    def __init__(self, module, mesh, reshard_after_forward):
        self.module = module
        self.mesh = mesh
        self.reshard_after_forward = reshard_after_forward
        self.params = []
        self.is_root = None
        self.name = type(module).__name__
        self.unsharded = False
        self.gathered_for_backward = False
        self.post_forward = None
        self.post_forward_shard = None
        self.requires_gradient_sync = True
        hsdp = mesh.ndim == 2
        self.shard_dim = mesh.ndim - 1
        self.placements = (Replicate(), Shard(0)) if hsdp else (Shard(0),)

    def shard_group(self):
        return self.mesh.get_group(self.shard_dim)

    def shard_index(self):
        return self.mesh.get_coordinate()[self.shard_dim]

    def _cause(self, what):
        return "FSDP " + what + " of " + self.name

    def unshard(self, why):
        """All-gathers the group's shards (one collective per dtype) and puts
        the whole parameters on their modules."""
        self.post_forward_shard = None
        if self.unsharded or not self.params:
            self.unsharded = True
            return
        with torch.no_grad():
            for params in self._by_dtype():
                full = self._all_gather(params, why)
                for p, value in zip(params, full):
                    whole = nn.Parameter(value, requires_grad=p.sharded.requires_grad)
                    p.unsharded = whole
                    setattr(p.owner, p.name, whole)
        self.unsharded = True

    def _by_dtype(self):
        groups = {}
        for p in self.params:
            groups.setdefault(p.sharded.dtype, []).append(p)
        return list(groups.values())

    def _all_gather(self, params, why, only_cost=False):
        n = self.mesh.shape[self.shard_dim]
        pieces = []
        for p in params:
            local = p.sharded._local_tensor.reshape(-1)
            pad = p.chunk * p.row() - local.numel()
            if pad > 0:
                local = torch.cat([local, torch.zeros(pad, dtype=local.dtype, device=local.device)])
            pieces.append(local)
        flat = torch.cat(pieces)
        total = flat.numel()
        out = torch.empty(n * total, dtype=flat.dtype, device=flat.device)
        _with_cause(self._cause("all-gather (" + why + ")"),
                    lambda: dist.all_gather_into_tensor(out, flat, group=self.shard_group()), functional=False)
        if only_cost:
            return None
        full = []
        offset = 0
        for p in params:
            size = p.chunk * p.row()
            rows = []
            for r in range(n):
                segment = out[r * total + offset:r * total + offset + size]
                rows.append(segment.reshape([p.chunk] + list(p.full_shape[1:]))[:p.sizes[r]])
            full.append(torch.cat(rows, 0).reshape(p.full_shape).clone())
            offset += size
        return full

    def reshard(self):
        self.gathered_for_backward = False
        self.post_forward_shard = None
        if not self.unsharded:
            return
        for p in self.params:
            setattr(p.owner, p.name, p.sharded)
        self.unsharded = False

    def pre_backward_gather(self):
        # The gathered values the backward needs are the ones the forward
        # saved; this is the collective PyTorch issues to get them back.
        with torch.no_grad():
            if self.post_forward_shard is not None:
                group, _, size = self.post_forward
                for piece in self.post_forward_shard:
                    out = torch.empty(piece.numel() * size, dtype=piece.dtype, device=piece.device)
                    _with_cause(self._cause("all-gather (pre-backward)"),
                                lambda: dist.all_gather_into_tensor(out, piece, group=group), functional=False)
                self.post_forward_shard = None
            else:
                for params in self._by_dtype():
                    self._all_gather(params, "pre-backward", only_cost=True)
        self.gathered_for_backward = True

    def reshard_to_post_forward(self):
        """`reshard_after_forward=<int>`: this rank keeps its 1/size of the
        whole parameters (each cut as torch.chunk cuts dim 0 into `size`
        pieces, padded to the largest), one flat tensor per dtype, copied
        locally as PyTorch does; the module gets its shards back."""
        _, index, size = self.post_forward
        pieces = []
        with torch.no_grad():
            for params in self._by_dtype():
                flat = []
                for p in params:
                    sizes, chunk = _chunk_sizes(p.full_shape[0], size)
                    start = min(index * chunk, p.full_shape[0])
                    block = p.unsharded.detach()[start:start + sizes[index]].reshape(-1)
                    pad = chunk * p.row() - block.numel()
                    if pad > 0:
                        block = torch.cat([block, torch.zeros(pad, dtype=block.dtype, device=block.device)])
                    flat.append(block)
                pieces.append(torch.cat(flat).clone())
        self.reshard()
        self.post_forward_shard = pieces

    def reduce_gradients(self):
        """The group's gradients: one reduce-scatter per dtype over the shard
        group (then an all-reduce over the replicas with HSDP), each rank's
        shard averaged (ReduceOp.AVG, as FSDP2 reduces float32 and bfloat16
        gradients), accumulated into the sharded parameters' `.grad`."""
        n = self.mesh.shape[self.shard_dim]
        with torch.no_grad():
            for params in self._by_dtype():
                params = [p for p in params if p.unsharded is not None and p.unsharded.grad is not None]
                if not params:
                    continue
                per_rank = [[] for _ in range(n)]
                for p in params:
                    g = p.unsharded.grad
                    for r in range(n):
                        start = min(r * p.chunk, p.full_shape[0])
                        block = g[start:start + p.sizes[r]].reshape(-1)
                        pad = p.chunk * p.row() - block.numel()
                        if pad > 0:
                            block = torch.cat([block, torch.zeros(pad, dtype=block.dtype, device=block.device)])
                        per_rank[r].append(block)
                flat = torch.cat([torch.cat(blocks) for blocks in per_rank])
                total = flat.numel() // n
                out = torch.empty(total, dtype=flat.dtype, device=flat.device)
                nbytes = flat.numel() * flat.element_size()
                cause = self._cause("reduce-scatter of gradients (" + str(len(params)) + " gradients, "
                                    + str(nbytes) + " bytes)")
                dist._run("reduce_scatter_tensor", "reduce_scatter", self.shard_group(), flat, [out], "AVG",
                          cause=cause, grads_of=[p.unsharded for p in params])
                if self.mesh.ndim == 2:
                    _with_cause(self._cause("all-reduce of gradients across replicas"),
                                lambda: dist.all_reduce(out, op=dist.ReduceOp.AVG, group=self.mesh.get_group(0)),
                                functional=False)
                me = self.shard_index()
                offset = 0
                for p in params:
                    size = p.chunk * p.row()
                    local = out[offset:offset + size].reshape([p.chunk] + list(p.full_shape[1:]))[:p.sizes[me]]
                    local = local.clone()
                    offset += size
                    have = p.sharded._local_tensor.grad
                    p.sharded.grad = DTensor(local if have is None else have + local, p.sharded._spec)
                    p.unsharded.grad = None


# The states whose forward ran since the last backward, in forward order.
_forward_order = []


def _backward_order():
    # PyTorch's order in backward: the root first (its pre-backward runs as
    # backward starts), then the other groups in reverse forward order.
    roots = [s for s in _forward_order if s.is_root]
    return roots + [s for s in reversed(_forward_order) if not s.is_root]


def _before_backward():
    for state in _backward_order():
        if not state.unsharded and state.reshard_after_forward:
            state.pre_backward_gather()
    _note_memory("backward start")


def _after_backward():
    # The reduce-scatters as PyTorch 2.15 issues them: each group's as its
    # backward ends, the root's (whose inputs need no gradient, so no hook
    # marks its end) just before the last group's.
    order = _backward_order()
    roots = [s for s in order if s.is_root]
    rest = [s for s in order if not s.is_root]
    done = rest[:-1] + roots + rest[-1:] if rest else roots
    del _forward_order[:]
    _note_memory("backward end")
    for state in done:
        if state.requires_gradient_sync:
            state.reduce_gradients()
        state.reshard()
        _note_memory("after reduce-scatter", state)


class FSDPModule:
    def __call__(self, *args, **kwargs):
        state = self._fsdp_state
        if state.is_root is None:
            _lazy_init(self)
        if state.is_root:
            del _forward_order[:]
            _note_memory("before forward", state)
        gather = not state.unsharded
        state.unshard("forward")
        if gather:
            _note_memory("after all-gather (forward)", state)
        # In pre-forward order (root first), so that backward's reverse order
        # ends with the root, as PyTorch's post-backward does.
        if torch.is_grad_enabled() and state not in _forward_order:
            _forward_order.append(state)
        out = super().__call__(*args, **kwargs)
        if torch.is_grad_enabled():
            if state.is_root:
                if _before_backward not in torch._backward_pre_callbacks:
                    torch._backward_pre_callbacks.append(_before_backward)
                if _after_backward not in torch._backward_callbacks:
                    torch._backward_callbacks.append(_after_backward)
        if state.post_forward is not None and torch.is_grad_enabled():
            state.reshard_to_post_forward()
        elif state.reshard_after_forward:
            state.reshard()
        _note_memory("after forward", state)
        return out

    def reshard(self):
        self._fsdp_state.reshard()

    def unshard(self, async_op=False):
        self._fsdp_state.unshard("explicit unshard")
        return None

    def set_requires_gradient_sync(self, requires_gradient_sync, *, recurse=True):
        for m in (self.modules() if recurse else [self]):
            if isinstance(m, FSDPModule):
                m._fsdp_state.requires_gradient_sync = requires_gradient_sync

    def set_reshard_after_forward(self, reshard_after_forward, recurse=True):
        if not isinstance(reshard_after_forward, bool):
            raise ValueError("reshard_after_forward should be a bool, got " + str(type(reshard_after_forward)))
        for m in (self.modules() if recurse else [self]):
            if isinstance(m, FSDPModule):
                m._fsdp_state.reshard_after_forward = reshard_after_forward
                m._fsdp_state.post_forward = None


def _lazy_init(root):
    # The first forward decides the root (the fully_shard module whose forward
    # runs first) and names every group by its module's path.
    for name, m in root.named_modules():
        if isinstance(m, FSDPModule):
            state = m._fsdp_state
            state.is_root = m is root
            state.name = (name if name else "root") + " (" + type(m).__name__[4:] + ")"
            if state.reshard_after_forward is None:
                state.reshard_after_forward = not state.is_root


def _managed(module):
    # (owner, attribute name) of the parameters no fully_shard module inside
    # `module` manages, in `parameters()` order.
    out = []
    seen = set()

    def walk(m, top):
        if not top and isinstance(m, FSDPModule):
            return
        for name, value in vars(m).items():
            if isinstance(value, nn.Parameter) and id(value) not in seen:
                seen.add(id(value))
                out.append((m, name))
        for _, child in m.named_children():
            walk(child, False)

    walk(module, True)
    return out


def _post_forward_group(mesh, size):
    # PyTorch's post-forward mesh: the mesh's ranks, flattened, in rows of
    # `size`; each rank keeps 1/size of the parameters after forward and
    # its row all-gathers them before backward. Every rank makes every row's
    # group, in order. (rank's group, its index in the row, the row size).
    ranks = mesh._ranks
    me = ranks.index(dist.get_rank())
    mine = None
    for start in range(0, len(ranks), size):
        g = dist.new_group(ranks[start:start + size])
        if start <= me < start + size:
            mine = g
    return (mine, me % size, size)


def fully_shard(module, *, mesh=None, reshard_after_forward=None, shard_placement_fn=None, mp_policy=None,
                offload_policy=None, ignored_params=None):
    if isinstance(module, (list, tuple)):
        raise NotImplementedError("fully_shard of a list of modules is not supported yet")
    if shard_placement_fn is not None or mp_policy is not None or offload_policy is not None:
        raise NotImplementedError("fully_shard(shard_placement_fn=, mp_policy=, offload_policy=) are not supported yet")
    if mesh is None:
        mesh = init_device_mesh("tpu", (dist.get_world_size(),))
    if mesh.ndim not in (1, 2):
        raise ValueError("fully_shard expects a 1D or 2D DeviceMesh but got " + repr(mesh))
    shard_size = mesh.shape[mesh.ndim - 1]
    post_forward = None
    if reshard_after_forward is not None and not isinstance(reshard_after_forward, (bool, int)):
        raise ValueError("reshard_after_forward should be a bool or an int representing the group size to reshard "
                         "to, not " + str(reshard_after_forward))
    if isinstance(reshard_after_forward, int) and not isinstance(reshard_after_forward, bool):
        # As PyTorch: an int reshards after forward to groups of that many
        # ranks (1 means not at all, the shard group's size means fully).
        if reshard_after_forward < 1 or reshard_after_forward > shard_size or shard_size % reshard_after_forward:
            raise ValueError("If passing reshard_after_forward as an int, it should be a factor of "
                             + str(shard_size) + ", not " + str(reshard_after_forward))
        if reshard_after_forward == 1:
            reshard_after_forward = False
        elif reshard_after_forward == shard_size:
            reshard_after_forward = True
        else:
            post_forward = _post_forward_group(mesh, reshard_after_forward)
    state = _State(module, mesh, reshard_after_forward)
    state.post_forward = post_forward
    n = mesh.shape[state.shard_dim]
    me = state.shard_index()
    for owner, name in _managed(module):
        p = getattr(owner, name)
        if isinstance(p, DTensor):
            raise NotImplementedError("fully_shard of a module whose parameters are already DTensors is not "
                                      "supported yet")
        shape = list(p.shape)
        if not shape:
            raise NotImplementedError("fully_shard of a 0-dimensional parameter is not supported yet")
        sizes, chunk = _chunk_sizes(shape[0], n)
        start = min(me * chunk, shape[0])
        with torch.no_grad():
            local = p.detach()[start:start + sizes[me]].clone()
        sharded = nn.Parameter(DTensor(local, _Spec(mesh, state.placements, shape)), requires_grad=p.requires_grad)
        setattr(owner, name, sharded)
        state.params.append(_Param(owner, name, sharded, shape, sizes, chunk))
    module._fsdp_state = state
    module.__class__ = _fsdp_class(type(module))
    if not _states:
        torch.optim.register_optimizer_step_post_hook(_after_optimizer_step)
    _states.append(state)
    return module


class MixedPrecisionPolicy:
    def __init__(self, param_dtype=None, reduce_dtype=None, output_dtype=None, cast_forward_inputs=True):
        raise NotImplementedError("MixedPrecisionPolicy is not supported yet")


class CPUOffloadPolicy:
    def __init__(self, pin_memory=True):
        raise NotImplementedError("CPUOffloadPolicy is not supported yet: a TPU's host offload is not simulated")
