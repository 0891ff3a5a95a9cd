# Sharding propagation for DTensor: for each torch._C primitive, the output's
# placements given the operands', the operands' placements the op needs (they
# are redistributed to them first), and the primitive run on the local blocks.
# The rules are PyTorch's (torch/distributed/tensor/_ops/): pointwise ops follow
# the operand with the most shards, linear ones (add and sub of Partials, a
# Partial times or over a Replicate or a number, neg) keep Partial and the
# rest reduce it first; a product keeps the batch, row and column shards and
# turns contracted shards into Partial(sum); a reduction over a sharded
# dimension gives Partial; views move Shard(d) with the dimension it names.
# Where operands match no rule the cheapest redistribution that makes them
# match is chosen (a local chunk costs nothing, an all-gather the operand's
# size). A primitive without a rule raises PyTorch's "no sharding strategy"
# error naming it. This file runs as one body with dtensor.py.


def _is_dt(v):
    return isinstance(v, DTensor)


def _op_error(op):
    return NotImplementedError("Operator aten." + op + ".default does not have a sharding strategy registered.")


def _check_operands(op, values):
    """The mesh the DTensor operands share; a plain tensor with dimensions
    among them is PyTorch's "mixed" error (0-d ones act as replicated
    scalars)."""
    mesh = None
    for v in values:
        if _is_dt(v):
            if mesh is None:
                mesh = v._spec.mesh
            elif v._spec.mesh != mesh:
                raise NotImplementedError("aten." + op + ".default: DTensor does not support cross-mesh operation yet! "
                                          "Got meshes: " + repr(mesh) + " " + repr(v._spec.mesh))
        elif isinstance(v, torch.Tensor) and v.dim() > 0:
            raise RuntimeError("aten." + op + ".default: got mixed torch.Tensor and DTensor, need to convert all "
                               "torch.Tensor to DTensor before calling distributed operators!")
    return mesh


def _num_shards(v):
    n = 1
    for i, p in enumerate(v._spec.placements):
        if isinstance(p, Shard):
            n *= v._spec.mesh.shape[i]
    return n


def _broadcast_shapes(shapes):
    rank = max([len(s) for s in shapes] + [0])
    out = [1] * rank
    for s in shapes:
        for k, size in enumerate(s):
            j = rank - len(s) + k
            if out[j] == 1:
                out[j] = size
    return out


def _local(v, placements):
    if _is_dt(v):
        return _redistribute_local(v._local_tensor, v._spec, placements)
    if isinstance(v, torch.Tensor):
        return v
    return v


def _operand_placements(v, out_placements, out_shape):
    # The out placements seen from an operand that broadcasts to out_shape:
    # Shard(d) of the output is the operand's dimension d - (out rank - its
    # rank), or Replicate where the operand has no such dimension or
    # broadcasts a size-1 one.
    shape = v._spec.shape
    lead = len(out_shape) - len(shape)
    out = []
    for p in out_placements:
        if isinstance(p, Shard):
            d = p.dim - lead
            if d < 0 or (shape[d] == 1 and out_shape[p.dim] != 1):
                out.append(Replicate())
            else:
                out.append(Shard(d))
        else:
            out.append(p)
    return out


_LINEAR_ADD = ("add", "sub")
_LINEAR_SCALE = ("mul", "div")


def _pointwise(op, primitive, head, operands, tail, linear_kind=None, bool_out=False):
    mesh = _check_operands(op, operands)
    dts = [v for v in operands if _is_dt(v)]
    out_shape = _broadcast_shapes([list(v._spec.shape) if _is_dt(v) else
                                   (list(v.shape) if isinstance(v, torch.Tensor) else []) for v in operands])
    follow = dts[0]
    for v in dts[1:]:
        if _num_shards(v) > _num_shards(follow):
            follow = v
    lead = len(out_shape) - len(follow._spec.shape)
    out = []
    for i, p in enumerate(follow._spec.placements):
        if isinstance(p, Shard):
            out.append(Shard(p.dim + lead))
        elif isinstance(p, Partial):
            out.append(p if _keeps_partial(linear_kind, operands, i, p) else Replicate())
        else:
            # A Partial operand under a Replicate follower: the op needs it whole.
            out.append(Replicate())
    locals_ = []
    for v in operands:
        if _is_dt(v):
            want = _operand_placements(v, out, out_shape)
            # Where the output keeps Partial, only the Partial operand holds
            # a term; the others stay as they are (Replicate).
            for i, p in enumerate(out):
                if isinstance(p, Partial) and not isinstance(v._spec.placements[i], Partial):
                    want[i] = v._spec.placements[i]
            locals_.append(_local(v, want))
        else:
            locals_.append(v)
    result = primitive(*(list(head) + locals_ + list(tail)))
    return DTensor(result, _Spec(mesh, out, out_shape))


def _keeps_partial(kind, operands, i, p):
    if p.reduce_op not in ("sum", "avg"):
        return False
    partial = [v for v in operands if _is_dt(v) and isinstance(v._spec.placements[i], Partial)]
    others = [v for v in operands if not (_is_dt(v) and isinstance(v._spec.placements[i], Partial))]
    if kind == "add":
        # P + P stays Partial; a Replicate or a number added to a Partial would
        # be added once per rank.
        return not others and all(v._spec.placements[i] == p for v in partial)
    if kind == "scale":
        # One Partial factor (the dividend, for div) times Replicates or numbers.
        return len(partial) == 1 and all(not _is_dt(v) or isinstance(v._spec.placements[i], Replicate)
                                         for v in others)
    if kind == "neg":
        return True
    return False


def _unary(args):
    op, x = args[0], args[1]
    return _pointwise(op, _C.unary, [op], [x], args[2:], "neg" if op == "neg" else None)


def _binary(args):
    op, a, b = args[0], args[1], args[2]
    kind = "add" if op in _LINEAR_ADD else ("scale" if op in _LINEAR_SCALE else None)
    if kind == "scale" and op == "div" and _is_dt(b) and any(isinstance(p, Partial) for p in b._spec.placements):
        kind = None
    return _pointwise(op, _C.binary, [op], [a, b], args[3:], kind)


def _compare(args):
    return _pointwise(args[0], _C.compare, [args[0]], [args[1], args[2]], args[3:])


def _where(args):
    return _pointwise("where", _C.where, [], [args[0], args[1], args[2]], args[3:])


# Products.

def _cost(v, have, want):
    if have == want:
        return 0
    if isinstance(want, Partial):
        return None
    size = v.numel()
    if isinstance(have, Replicate):
        return 0
    if isinstance(have, Partial):
        return 2 * size if isinstance(want, Replicate) else size
    return size


def _matmul(args, name):
    a, b = args[0], args[1]
    mesh = _check_operands(name, [a, b])
    if not (_is_dt(a) and _is_dt(b)):
        raise RuntimeError("aten." + name + ".default: got mixed torch.Tensor and DTensor, need to convert all "
                           "torch.Tensor to DTensor before calling distributed operators!")
    sa, sb = list(a._spec.shape), list(b._spec.shape)
    if len(sa) < 2 or len(sb) < 2:
        raise _op_error(name + " of a 1-D DTensor")
    batch = _broadcast_shapes([sa[:-2], sb[:-2]])
    nb = len(batch)
    out_shape = batch + [sa[-2], sb[-1]]
    la, lb = len(sa), len(sb)
    # Candidates per mesh dimension: (A's placement, B's, the output's).
    # All-replicate first: of equally cheap choices PyTorch's einsum strategy
    # list has it first, and the first cheapest wins.
    candidates = [
        (Replicate(), Replicate(), Replicate()),
        (Shard(la - 2), Replicate(), Shard(nb)),
        (Replicate(), Shard(lb - 1), Shard(nb + 1)),
        (Shard(la - 1), Shard(lb - 2), Partial()),
    ]
    for j in range(nb):
        da = j - (nb - (la - 2))
        db = j - (nb - (lb - 2))
        pa = Shard(da) if da >= 0 and sa[da] != 1 else Replicate()
        pb = Shard(db) if db >= 0 and sb[db] != 1 else Replicate()
        candidates.append((pa, pb, Shard(j)))
    candidates += [
        (Partial(), Replicate(), Partial()),
        (Replicate(), Partial(), Partial()),
    ]
    want_a, want_b, out = [], [], []
    for i in range(mesh.ndim):
        have_a, have_b = a._spec.placements[i], b._spec.placements[i]
        best = None
        for ca, cb, co in candidates:
            if isinstance(co, Partial):
                if isinstance(ca, Partial) and have_a != Partial():
                    continue
                if isinstance(cb, Partial) and have_b != Partial():
                    continue
            cost_a, cost_b = _cost(a, have_a, ca), _cost(b, have_b, cb)
            if cost_a is None or cost_b is None:
                continue
            if best is None or cost_a + cost_b < best[0]:
                best = (cost_a + cost_b, ca, cb, co)
        want_a.append(best[1])
        want_b.append(best[2])
        out.append(best[3])
    primitive = {"matmul": _C.matmul, "mm": _C.mm, "bmm": _C.bmm}[name]
    result = primitive(_local(a, want_a), _local(b, want_b))
    return DTensor(result, _Spec(mesh, out, out_shape))


# Reductions.

def _reduced_placements(v, dims, keepdim, reduce_op, linear):
    """The placements after reducing `dims` (None: all): a Shard of a reduced
    dimension becomes Partial(reduce_op), one of a kept dimension moves down
    past the removed ones; a Partial input stays Partial only through a
    linear reduction (sum, mean) and is reduced first otherwise."""
    rank = len(v._spec.shape)
    reduced = list(range(rank)) if dims is None else [d % rank if rank else 0 for d in dims]
    want = list(v._spec.placements)
    out = []
    for i, p in enumerate(want):
        if isinstance(p, Shard):
            if p.dim in reduced:
                out.append(Partial(reduce_op))
            else:
                shift = 0 if keepdim else sum(1 for d in reduced if d < p.dim)
                out.append(Shard(p.dim - shift))
        elif isinstance(p, Partial):
            if linear and p.reduce_op == "sum":
                out.append(p)
            else:
                want[i] = Replicate()
                out.append(Replicate())
        else:
            out.append(p)
    shape = []
    for d, s in enumerate(v._spec.shape):
        if d in reduced:
            if keepdim:
                shape.append(1)
        else:
            shape.append(s)
    return want, out, shape


def _sum_like(args, name):
    v, dims, keepdim = args[0], args[1], args[2]
    _check_operands(name, [v])
    reduce_op = {"sum": "sum", "mean": "avg", "prod": "product"}[name]
    want, out, shape = _reduced_placements(v, dims, keepdim, reduce_op, name != "prod")
    if name == "prod":
        want = [Replicate() if isinstance(p, Shard) and (dims is None or p.dim in dims) else p for p in want]
        out = [Replicate() if isinstance(p, Partial) else p for p in out]
    primitive = {"sum": _C.sum, "mean": _C.mean, "prod": _C.prod}[name]
    result = primitive(*([_local(v, want)] + list(args[1:])))
    return DTensor(result, _Spec(v._spec.mesh, out, shape))


def _unshard_dims(v, dims):
    # The placements with every Shard of one of `dims` (and every Partial)
    # replaced by Replicate: what an op needs along a dimension it scans.
    rank = len(v._spec.shape)
    dims = [d % rank for d in dims] if rank else []
    return [Replicate() if (isinstance(p, Shard) and p.dim in dims) or isinstance(p, Partial) else p
            for p in v._spec.placements]


def _along(args, name, removes):
    # An op along one dimension (cumsum, max(dim), argmax(dim)): the
    # dimension is gathered first; a removed dimension shifts later shards.
    v, dim = args[0], args[1]
    _check_operands(name, [v])
    rank = len(v._spec.shape)
    if dim is None:
        want = [Replicate()] * v._spec.mesh.ndim
        result = getattr(_C, name)(*([_local(v, want)] + list(args[1:])))
        return DTensor(result, _Spec(v._spec.mesh, want, list(result.shape)))
    d = dim % rank if rank else 0
    want = _unshard_dims(v, [d])
    keepdim = args[2] if removes else True
    out = []
    for p in want:
        if isinstance(p, Shard) and not keepdim and p.dim > d:
            out.append(Shard(p.dim - 1))
        else:
            out.append(p)
    shape = [s for k, s in enumerate(v._spec.shape) if keepdim or k != d]
    if removes and keepdim:
        shape[d] = 1
    result = getattr(_C, name)(*([_local(v, want)] + list(args[1:])))
    if isinstance(result, tuple):
        return tuple(DTensor(r, _Spec(v._spec.mesh, out, shape)) for r in result)
    return DTensor(result, _Spec(v._spec.mesh, out, shape))


def _extremum_all(args):
    v, is_max = args[0], args[1]
    _check_operands("max", [v])
    op = "max" if is_max else "min"
    want = [Replicate() if isinstance(p, Partial) else p for p in v._spec.placements]
    out = [Partial(op) if isinstance(p, Shard) else p for p in want]
    return DTensor(_C.extremum_all(_local(v, want), is_max), _Spec(v._spec.mesh, out, []))


# Views.

def _view(args, name):
    v, sizes = args[0], list(args[1])
    _check_operands(name, [v])
    shape = list(v._spec.shape)
    total = v.numel()
    if -1 in sizes:
        known = 1
        for s in sizes:
            if s != -1:
                known *= s
        sizes[sizes.index(-1)] = total // known if known else 0
    # Group the input and output dimensions into runs of equal product: a
    # Shard of the first sized dimension of a run moves to the run's first
    # sized output dimension when that divides evenly; any other is
    # gathered first.
    groups = []
    i = j = 0
    while i < len(shape) or j < len(sizes):
        gi, gj = [], []
        pi = pj = 1
        while True:
            if pi <= pj and i < len(shape):
                pi *= shape[i]
                gi.append(i)
                i += 1
            elif j < len(sizes):
                pj *= sizes[j]
                gj.append(j)
                j += 1
            else:
                break
            if pi == pj and (i >= len(shape) or shape[i] != 1) and (j >= len(sizes) or sizes[j] != 1):
                break
        groups.append((gi, gj))
    want = list(v._spec.placements)
    out = list(want)
    local_sizes = list(sizes)
    for k, p in enumerate(want):
        if not isinstance(p, Shard):
            continue
        moved = None
        for gi, gj in groups:
            if p.dim in gi:
                first_in = [d for d in gi if shape[d] != 1]
                first_out = [d for d in gj if sizes[d] != 1]
                m = v._spec.mesh.shape[k]
                if first_in and first_out and first_in[0] == p.dim and shape[p.dim] % m == 0 \
                        and sizes[first_out[0]] % m == 0:
                    moved = first_out[0]
        if moved is None:
            want[k] = Replicate()
            out[k] = Replicate()
        else:
            out[k] = Shard(moved)
    local = _local(v, want)
    for k, p in enumerate(out):
        if isinstance(p, Shard):
            local_sizes[p.dim] = local_sizes[p.dim] // v._spec.mesh.shape[k]
    result = getattr(_C, name)(local, local_sizes)
    return DTensor(result, _Spec(v._spec.mesh, out, sizes))


def _moved(v, where):
    # The placements with each Shard(d) moved to where(d).
    return [Shard(where(p.dim)) if isinstance(p, Shard) else p for p in v._spec.placements]


def _permute(args):
    v, dims = args[0], list(args[1])
    rank = len(v._spec.shape)
    dims = [d % rank for d in dims]
    out = _moved(v, lambda d: dims.index(d))
    shape = [v._spec.shape[d] for d in dims]
    return DTensor(_C.permute(v._local_tensor, args[1]), _Spec(v._spec.mesh, out, shape))


def _transpose(args):
    v, d0, d1 = args[0], args[1], args[2]
    rank = len(v._spec.shape)
    d0, d1 = d0 % rank, d1 % rank
    out = _moved(v, lambda d: d1 if d == d0 else (d0 if d == d1 else d))
    shape = list(v._spec.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    return DTensor(_C.transpose(v._local_tensor, d0, d1), _Spec(v._spec.mesh, out, shape))


def _unsqueeze(args):
    v, d = args[0], args[1]
    rank = len(v._spec.shape) + 1
    d = d % rank
    out = _moved(v, lambda x: x + 1 if x >= d else x)
    shape = list(v._spec.shape)
    shape.insert(d, 1)
    return DTensor(_C.unsqueeze(v._local_tensor, d), _Spec(v._spec.mesh, out, shape))


def _squeeze(args):
    v, dims = args[0], args[1]
    shape = list(v._spec.shape)
    rank = len(shape)
    gone = [d for d in range(rank) if shape[d] == 1 and (dims is None or d in [x % rank for x in dims])]
    out = _moved(v, lambda x: x - sum(1 for g in gone if g < x))
    new_shape = [s for d, s in enumerate(shape) if d not in gone]
    return DTensor(_C.squeeze(v._local_tensor, gone), _Spec(v._spec.mesh, out, new_shape))


def _expand(args):
    v, sizes = args[0], list(args[1])
    shape = list(v._spec.shape)
    lead = len(sizes) - len(shape)
    out = _moved(v, lambda d: d + lead)
    local_shape = list(v._local_tensor.shape)
    local_sizes = []
    for j, s in enumerate(sizes):
        d = j - lead
        if s == -1 or (d >= 0 and s == shape[d]):
            local_sizes.append(local_shape[d] if d >= 0 else s)
        else:
            local_sizes.append(s)
    global_sizes = [shape[j - lead] if s == -1 else s for j, s in enumerate(sizes)]
    return DTensor(_C.expand(v._local_tensor, local_sizes), _Spec(v._spec.mesh, out, global_sizes))


def _same_spec(args, name):
    v = args[0]
    result = getattr(_C, name)(*([v._local_tensor] + list(args[1:])))
    return DTensor(result, v._spec)


def _slice_like(args, name):
    v, dim = args[0], args[1]
    rank = len(v._spec.shape)
    d = dim % rank
    want = _unshard_dims(v, [d])
    result = getattr(_C, name)(*([_local(v, want)] + list(args[1:])))
    if name == "select":
        out = [Shard(p.dim - 1) if isinstance(p, Shard) and p.dim > d else p for p in want]
        shape = [s for k, s in enumerate(v._spec.shape) if k != d]
    else:
        out = want
        shape = list(v._spec.shape)
        shape[d] = result.shape[d]
    return DTensor(result, _Spec(v._spec.mesh, out, shape))


def _cat(args):
    items, dim = list(args[0]), args[1]
    mesh = _check_operands("cat", items)
    first = items[0]
    rank = len(first._spec.shape)
    d = dim % rank
    want = _unshard_dims(first, [d])
    locals_ = [_local(v, want) for v in items]
    shape = list(first._spec.shape)
    shape[d] = sum(v._spec.shape[d] for v in items)
    return DTensor(_C.cat(locals_, dim), _Spec(mesh, want, shape))


def _stride(args):
    shape = args[0]._spec.shape
    strides = []
    step = 1
    for s in reversed(shape):
        strides.append(step)
        step *= max(s, 1)
    return tuple(reversed(strides))


# Autograd and writes.

def _backward(args):
    v, gradient, retain = args[0], args[1], args[2]
    seed = None
    if gradient is not None:
        if not _is_dt(gradient):
            raise RuntimeError("aten.backward: got mixed torch.Tensor and DTensor, need to convert all "
                               "torch.Tensor to DTensor before calling distributed operators!")
        seed = _local_of(gradient, v._spec)
    return _C.backward(v._local_tensor, seed, retain)


def _requires_grad(args):
    _C.requires_grad_(args[0]._local_tensor, args[1])
    return args[0]


def _parameter(args):
    data, requires_grad = args[0], args[1]
    local = _C.parameter(data._local_tensor, requires_grad)
    p = DTensor(local, data._spec)
    p._is_param = True
    return p


def _autograd_grad(args):
    root, seed, inputs, retain = args[0], args[1], args[2], args[3]
    local_root = root._local_tensor if _is_dt(root) else root
    local_seed = _local_of(seed, root._spec) if _is_dt(seed) else seed
    local_inputs = [x._local_tensor if _is_dt(x) else x for x in inputs]
    grads = _C.autograd_grad(local_root, local_seed, local_inputs, retain)
    return tuple(DTensor(g, x._spec) if (g is not None and _is_dt(x)) else g for g, x in zip(grads, inputs))


def _write(args, name):
    v, value = args[0], args[1]
    if _is_dt(value):
        if list(value._spec.shape) != list(v._spec.shape) and name == "assign":
            raise RuntimeError("aten.copy_.default: the shapes " + str(list(value._spec.shape)) + " and "
                               + str(list(v._spec.shape)) + " differ")
        value = _redistribute_local(value._local_tensor, value._spec, v._spec.placements)
    elif isinstance(value, torch.Tensor) and value.dim() > 0:
        raise RuntimeError("aten.copy_.default: got mixed torch.Tensor and DTensor, need to convert all "
                           "torch.Tensor to DTensor before calling distributed operators!")
    getattr(_C, name)(v._local_tensor, value)
    return v


def _set_data(args):
    v, value = args[0], args[1]
    if not _is_dt(value):
        raise RuntimeError("setting .data of a DTensor to a plain tensor is not supported")
    _C.set_data(v._local_tensor, value._local_tensor)
    v._spec = value._spec
    return None


def _full_like(args):
    v, value, dtype, device, requires_grad = args
    local = torch.full_like(v._local_tensor, value, dtype=dtype, device=device, requires_grad=requires_grad)
    placements = [Replicate() if isinstance(p, Partial) else p for p in v._spec.placements]
    if placements != list(v._spec.placements):
        local = torch.full(_local_box(v._spec.shape, v._spec.mesh, placements)[0], value,
                           dtype=dtype or v.dtype, device=device or v.device)
    return DTensor(local, _Spec(v._spec.mesh, placements, v._spec.shape))


def _local_only(args, name):
    # Primitives that read the local tensors only.
    values = [a._local_tensor if _is_dt(a) else a for a in args]
    return getattr(_C, name)(*values)


_HANDLERS = {
    "unary": _unary,
    "binary": _binary,
    "compare": _compare,
    "where": _where,
    "matmul": lambda a: _matmul(a, "matmul"),
    "mm": lambda a: _matmul(a, "mm"),
    "bmm": lambda a: _matmul(a, "bmm"),
    "sum": lambda a: _sum_like(a, "sum"),
    "mean": lambda a: _sum_like(a, "mean"),
    "prod": lambda a: _sum_like(a, "prod"),
    "extremum_dim": lambda a: _along(a, "extremum_dim", True),
    "arg_extremum": lambda a: _along(a, "arg_extremum", True),
    "cumsum": lambda a: _along(a, "cumsum", False),
    "extremum_all": _extremum_all,
    "view": lambda a: _view(a, "view"),
    "reshape": lambda a: _view(a, "reshape"),
    "permute": _permute,
    "transpose": _transpose,
    "unsqueeze": _unsqueeze,
    "squeeze": _squeeze,
    "expand": _expand,
    "contiguous": lambda a: _same_spec(a, "contiguous"),
    "clone": lambda a: _same_spec(a, "clone"),
    "cast": lambda a: _same_spec(a, "cast"),
    "to_device": lambda a: _same_spec(a, "to_device"),
    "detach": lambda a: _same_spec(a, "detach"),
    "slice": lambda a: _slice_like(a, "slice"),
    "select": lambda a: _slice_like(a, "select"),
    "cat": _cat,
    "stride": _stride,
    "is_contiguous": lambda a: _local_only(a, "is_contiguous"),
    "same_storage": lambda a: _local_only(a, "same_storage"),
    "retain_grad": lambda a: _local_only(a, "retain_grad"),
    "rename_grad_fn": lambda a: _local_only(a, "rename_grad_fn"),
    "detach_": lambda a: (_local_only(a, "detach_"), a[0])[1],
    "is_parameter": lambda a: getattr(a[0], "_is_param", False),
    "grad": lambda a: a[0].grad,
    "set_grad": lambda a: _C.set_grad(a[0]._local_tensor, None if a[1] is None else _local_of(a[1], a[0]._spec)),
    "backward": _backward,
    "requires_grad_": _requires_grad,
    "parameter": _parameter,
    "autograd_grad": _autograd_grad,
    "assign": lambda a: _write(a, "assign"),
    "write": lambda a: _write(a, "write"),
    "set_data": _set_data,
    "full_like": _full_like,
}

_ATEN_NAMES = {"fill_random": "normal_", "put": "index_put_", "take": "take", "nonzero": "nonzero"}


def _dispatch(name, args):
    handler = _HANDLERS.get(name)
    if handler is None:
        raise _op_error(_ATEN_NAMES.get(name, name))
    return handler(args)
