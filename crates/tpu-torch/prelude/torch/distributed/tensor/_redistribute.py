# Redistribution: moving a DTensor's local blocks from one placement to
# another with real collectives on the mesh's groups, each named for the
# Report by what asked for it. Part of `torch.distributed.tensor` (one
# namespace with the other parts; see __init__.py).


_REDUCE_OPS = {"sum": dist.ReduceOp.SUM, "avg": dist.ReduceOp.AVG, "max": dist.ReduceOp.MAX,
               "min": dist.ReduceOp.MIN, "product": dist.ReduceOp.PRODUCT}


def _local_box(shape, mesh, placements, upto=None):
    """This rank's block of a global `shape`: (sizes, offsets), applying the
    placements of mesh dimensions before `upto` (all by default) in order, each
    Shard cutting what the ones before left as torch.chunk does."""
    sizes = list(shape)
    offsets = [0] * len(shape)
    coordinate = mesh.get_coordinate()
    count = len(placements) if upto is None else upto
    for i in range(count):
        p = placements[i]
        if isinstance(p, Shard):
            n = sizes[p.dim]
            m = mesh.shape[i]
            chunk = (n + m - 1) // m
            start = min(coordinate[i] * chunk, n)
            offsets[p.dim] += start
            sizes[p.dim] = max(0, min(chunk, n - start))
    return sizes, offsets


def _chunk_sizes(n, m):
    chunk = (n + m - 1) // m
    return [max(0, min(chunk, n - min(c * chunk, n))) for c in range(m)], chunk


def _pad_dim(t, dim, size):
    """`t` with dimension `dim` zero-padded at its end to `size`."""
    have = t.shape[dim]
    if have == size:
        return t
    pad_shape = list(t.shape)
    pad_shape[dim] = size - have
    return torch.cat([t, torch.zeros(pad_shape, dtype=t.dtype, device=t.device)], dim)


def _placement_text(placements):
    return "(" + ", ".join(str(p) for p in placements) + ")"


def _mesh_dim_name(mesh, i):
    if mesh.mesh_dim_names is not None:
        return "'" + mesh.mesh_dim_names[i] + "'"
    return str(i)


def _step_cause(mesh, i, before, after, why):
    # What one mesh dimension's change is reported as, for its collective.
    return why + " " + str(before) + "->" + str(after) + " on mesh dim " + _mesh_dim_name(mesh, i)


def _with_cause(cause, f, functional=True):
    # Runs `f` with its collectives reported as caused by `cause`, and, for
    # DTensor's (`functional`), counted by CommDebugMode as the functional
    # collectives PyTorch's DTensor calls.
    saved = (dist._state.get("cause"), dist._state.get("functional"))
    dist._state["cause"] = cause
    dist._state["functional"] = functional
    try:
        return f()
    finally:
        dist._state["cause"], dist._state["functional"] = saved


def _all_gather_dim(local, mesh, i, dim, n, cause, own=None):
    # Every member's piece of a dimension of `n`, padded to the chunk, gathered
    # along dim 0 and trimmed: torch.chunk's pieces, concatenated. With `own`,
    # this rank's piece is `own` itself, so the gradient of the whole reaches
    # it (its chunk), as PyTorch's backward of Shard -> Replicate gives.
    m = mesh.shape[i]
    sizes, chunk = _chunk_sizes(n, m)
    if chunk == 0:
        return local
    x = _pad_dim(local, dim, chunk).movedim(dim, 0).contiguous()
    out = torch.empty([m * chunk] + list(x.shape[1:]), dtype=x.dtype, device=x.device)
    _with_cause(cause, lambda: dist.all_gather_into_tensor(out, x, group=mesh.get_group(i)))
    pieces = [out[c * chunk:c * chunk + sizes[c]] for c in range(m)]
    if own is not None:
        mine = mesh.get_coordinate()[i]
        pieces[mine] = own.movedim(dim, 0)
    return torch.cat(pieces, 0).movedim(0, dim)


def _reduce_scatter_dim(local, mesh, i, dim, op, cause):
    m = mesh.shape[i]
    n = local.shape[dim]
    sizes, chunk = _chunk_sizes(n, m)
    x = _pad_dim(local, dim, m * chunk).movedim(dim, 0).contiguous()
    out = torch.empty([chunk] + list(x.shape[1:]), dtype=x.dtype, device=x.device)
    _with_cause(cause, lambda: dist.reduce_scatter_tensor(out, x, op=_REDUCE_OPS[op], group=mesh.get_group(i)))
    mine = mesh.get_coordinate()[i]
    return out[:sizes[mine]].movedim(0, dim)


class _Redistribute(torch.autograd.Function):
    # A redistribution whose backward needs a collective: the gradient, laid
    # out as the output is, goes back to the input's placements (a Partial
    # input's as Replicate), as PyTorch's Redistribute.backward sends it.
    @staticmethod
    def forward(ctx, local, spec, placements, why):
        ctx.spec = spec
        ctx.placements = placements
        ctx.why = why
        return _redistribute_local(local, spec, placements, why)

    @staticmethod
    def backward(ctx, grad):
        back = [Replicate() if isinstance(p, Partial) else p for p in ctx.spec.placements]
        out_spec = ctx.spec.with_placements(ctx.placements)
        return _redistribute_local(grad, out_spec, back, ctx.why + " (backward)"), None, None, None


def _redistribute_local(local, spec, placements, why="DTensor redistribute"):
    """The local block of `spec`'s tensor placed as `placements`, moved with
    the collectives PyTorch's redistribution uses over gloo: all-gather for
    Shard to Replicate (and between two Shards, then a local chunk),
    all-reduce for Partial to Replicate, reduce-scatter for Partial to Shard,
    and a local chunk for Replicate to Shard. Changes run from the last mesh dimension to the first (an inner
    Shard of a dimension is undone before an outer one); a tensor dimension
    sharded on several mesh dimensions is gathered whole before it is cut
    again."""
    mesh = spec.mesh
    current = list(spec.placements)
    target = list(placements)
    if current == target:
        return local
    # With autograd, a step keeps this rank's own values differentiable where
    # PyTorch's backward of that step is local: Shard -> Replicate (its
    # backward takes this rank's chunk of the gradient) and Partial ->
    # Replicate (its backward passes the gradient through). A change to a
    # Shard needs a collective in backward: it runs as an autograd Function
    # whose backward redistributes the gradient back, as PyTorch's does.
    grad = torch.is_grad_enabled() and local.requires_grad
    if grad and any(current[i] != target[i] and isinstance(target[i], Shard) for i in range(len(current))):
        return _Redistribute.apply(local, spec, tuple(target), why)

    shape = list(spec.shape)
    # Tensor dimensions whose sharding changes on some mesh dimension.
    dirty = set()
    for i in range(len(current)):
        if current[i] != target[i]:
            for p in (current[i], target[i]):
                if isinstance(p, Shard):
                    dirty.add(p.dim)

    def nested(dim, placements_):
        return sum(1 for p in placements_ if isinstance(p, Shard) and p.dim == dim) > 1

    with torch.set_grad_enabled(grad):
        for i in reversed(range(len(current))):
            p, q = current[i], target[i]
            if p == q and not (isinstance(p, Shard) and p.dim in dirty):
                continue
            if isinstance(q, Partial) and p != q:
                raise RuntimeError("redistributing to Partial is not supported: Partial placements are the "
                                   "result of an operation, not a target (" + _placement_text(current) + " -> "
                                   + _placement_text(target) + ")")
            cause = _step_cause(mesh, i, p, q if p != q else Replicate(), why)
            if isinstance(p, Shard):
                n = _local_box(shape, mesh, current, i)[0][p.dim]
                # Shard(a) -> Shard(b) too: gathered, then cut below, as
                # PyTorch does over gloo (which has no all-to-all).
                local = _all_gather_dim(local, mesh, i, p.dim, n, cause, local if grad else None)
                current[i] = Replicate()
            elif isinstance(p, Partial):
                if isinstance(q, Shard) and not nested(q.dim, target) and q.dim not in dirty - {q.dim}:
                    local = _reduce_scatter_dim(local, mesh, i, q.dim, p.reduce_op, cause)
                    current[i] = q
                    continue
                x = local.clone()
                _with_cause(cause, lambda: dist.all_reduce(x, op=_REDUCE_OPS[p.reduce_op], group=mesh.get_group(i)))
                local = local + (x - local).detach() if grad else x
                current[i] = Replicate()
        # What is left is Replicate -> Shard: each rank keeps its chunk.
        for i in range(len(current)):
            q = target[i]
            if current[i] != q and isinstance(q, Shard):
                n = local.shape[q.dim]
                sizes, chunk = _chunk_sizes(n, mesh.shape[i])
                c = mesh.get_coordinate()[i]
                local = local.narrow(q.dim, min(c * chunk, n), sizes[c])
                current[i] = q
    return local


