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
# error naming it. Each rule registers itself with `@_rule` (_api.py); this
# file has the pointwise ops, products and reductions, _tensor_ops.py the rest.


def _is_dt(v):
    return isinstance(v, DTensor)


def _op_error(op, values=None):
    # A primitive without a rule: PyTorch's error for an op whose sharding
    # propagation fails.
    aten = "aten." + op + ".default"
    dts = [v for v in (values or []) if _is_dt(v)]
    if not dts:
        return RuntimeError(aten)
    return RuntimeError(aten + _propagation_failed(aten, values, dts[-1]._spec.mesh))


def _spec_text(v):
    # PyTorch's short form of an operand in a propagation error:
    # Spec(f32[4, 2](S(0)R)).
    short = {torch.float32: "f32", torch.float64: "f64", torch.bfloat16: "bf16", torch.float16: "f16", torch.int64: "i64",
             torch.int32: "i32", torch.uint8: "u8", torch.bool: "b8"}
    return ("Spec(" + short.get(v.dtype, str(v.dtype)) + str(list(v._spec.shape)) + "("
            + "".join(str(p) for p in v._spec.placements) + "))")


def _propagation_failed(aten, values, mesh):
    args = [_spec_text(v) if _is_dt(v) else repr(v) for v in values]
    return "\n\nSharding propagation failed for " + aten + "(" + ", ".join(args) + ") on " + repr(mesh) + ")"


def _check_operands(op, values):
    """The mesh the DTensor operands share; a plain tensor with dimensions
    among them is PyTorch's "mixed" error (0-d ones act as replicated
    scalars). `op` is the ATen name the errors give."""
    mesh = None
    for v in values:
        if _is_dt(v):
            if mesh is None:
                mesh = v._spec.mesh
            elif v._spec.mesh != mesh:
                raise RuntimeError("Cannot run " + op + " on inputs with different meshes: got " + repr(mesh)
                                   + " and " + repr(v._spec.mesh)
                                   + _propagation_failed(op, values, v._spec.mesh))
        elif isinstance(v, torch.Tensor) and v.dim() > 0:
            raise RuntimeError(op + " got mixed torch.Tensor and DTensor, need to convert all "
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


def _local(v, placements, out=None):
    """`v`'s local block placed as `placements`, for an op whose output is
    placed as `out` (when given): where `v` is replicated on a mesh
    dimension the output is not, this rank's backward sees only its share of
    the output's gradient, so the operand's gradient is summed over that
    dimension's group (`_SumGradient`)."""
    if not _is_dt(v):
        return v
    local = _redistribute_local(v._local_tensor, v._spec, placements)
    if out is not None and torch.is_grad_enabled() and local.requires_grad:
        dims = tuple(i for i in range(len(out)) if isinstance(placements[i], Replicate)
                     and not isinstance(out[i], Replicate))
        if dims:
            local = _SumGradient.apply(local, v._spec.mesh, dims)
    return local


class _SumGradient(torch.autograd.Function):
    # Identity forward; backward all-reduces the gradient over the mesh
    # dimensions given, so a replicated operand's gradient is whole on every
    # rank. (PyTorch leaves it Partial and reduces it when it is used: the
    # same values, one collective at another moment.)
    @staticmethod
    def forward(ctx, local, mesh, dims):
        ctx.mesh = mesh
        ctx.dims = dims
        return local

    @staticmethod
    def backward(ctx, grad):
        total = grad.clone()
        for i in ctx.dims:
            cause = "DTensor backward: a replicated operand's gradient summed over mesh dim " + str(i)
            _with_cause(cause, lambda: dist.all_reduce(total, group=ctx.mesh.get_group(i)))
        return total, None, None


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
# Unary ops that never decrease: a Partial(max) or Partial(min) stays one.
_MONOTONE = ("relu", "exp", "sigmoid", "tanh", "sqrt", "log", "floor", "ceil", "erf")


def _aten(primitive, op=None):
    # The ATen overload PyTorch's errors name for a primitive.
    if primitive in ("binary", "compare"):
        return "aten." + op + ".Tensor"
    if primitive == "unary":
        return "aten." + op + ".default"
    if primitive in ("matmul", "mm"):
        return "aten.mm.default"
    if primitive == "where":
        return "aten.where.self"
    return "aten." + primitive + ".default"


def _partial_out(kind, op, operands, i, p, fallback):
    """What mesh dimension i of a pointwise op's output is when some operand
    is Partial there, as PyTorch's linear pointwise rules decide, and the
    operands' placements and local scale factors that gives: (out, wants,
    scales) with wants[k] None for "as it is"."""
    n = len(operands)
    here = [v._spec.placements[i] if _is_dt(v) else None for v in operands]
    partial = [k for k in range(n) if isinstance(here[k], Partial)]
    scalars = [k for k in range(n) if not _is_dt(operands[k])]
    replicas = [k for k in range(n) if isinstance(here[k], Replicate)]
    wants = [None] * n
    scales = [1.0] * n
    r = here[partial[0]].reduce_op
    same = all(here[k].reduce_op == r for k in partial)
    if kind == "add" and same and not scalars and len(partial) + len(replicas) == n:
        # P(sum) + P(sum) stays Partial, and a Replicate added to one is
        # added as 1/n of it on each rank; with max or min the first Partial
        # stays and the others are reduced first.
        if r == "sum":
            for k in replicas:
                scales[k] = 1.0 / operands[partial[0]]._spec.mesh.shape[i]
        else:
            for k in partial[1:]:
                wants[k] = Replicate()
        return here[partial[0]], wants, scales
    if kind == "mul" and r in ("sum", "avg") and len(partial) + len(replicas) + len(scalars) == n:
        # Linear in one factor: the first Partial stays, any other is reduced.
        for k in partial[1:]:
            wants[k] = Replicate()
        return here[partial[0]], wants, scales
    if kind == "div" and r in ("sum", "avg") and partial == [0] and len(replicas) + len(scalars) == n - 1:
        return here[0], wants, scales
    if kind == "neg" and r in ("sum", "avg"):
        return here[0], wants, scales
    if kind == "monotone" and r in ("max", "min"):
        return here[0], wants, scales
    # Not linear here: every Partial is reduced to the output's placement.
    for k in partial:
        wants[k] = fallback
    return fallback, wants, scales


def _pointwise(op, primitive, head, operands, tail, kind=None, aten=None):
    mesh = _check_operands(aten or op, operands)
    dts = [v for v in operands if _is_dt(v)]
    out_shape = _broadcast_shapes([list(v._spec.shape) if _is_dt(v) else
                                   (list(v.shape) if isinstance(v, torch.Tensor) else []) for v in operands])
    follow = dts[0]
    for v in dts[1:]:
        if _num_shards(v) > _num_shards(follow):
            follow = v
    lead = len(out_shape) - len(follow._spec.shape)
    out = []
    partial_wants = {}
    scales = [1.0] * len(operands)
    for i, p in enumerate(follow._spec.placements):
        shard = Shard(p.dim + lead) if isinstance(p, Shard) else Replicate()
        if any(_is_dt(v) and isinstance(v._spec.placements[i], Partial) for v in operands):
            placement, wants, factors = _partial_out(kind, op, operands, i, p, shard)
            out.append(placement)
            partial_wants[i] = wants
            scales = [a * b for a, b in zip(scales, factors)]
        else:
            out.append(shard)
    locals_ = []
    for k, v in enumerate(operands):
        if _is_dt(v):
            want = _operand_placements(v, out, out_shape)
            for i, wants in partial_wants.items():
                if isinstance(out[i], Partial):
                    # Only the operands the rule changes move; the kept
                    # Partial and the Replicates stay as they are.
                    want[i] = wants[k] if wants[k] is not None else v._spec.placements[i]
                elif wants[k] is not None:
                    want[i] = _operand_placements(v, [wants[k]], out_shape)[0] if isinstance(wants[k], Shard) \
                        else wants[k]
            local = _local(v, want, out)
            if scales[k] != 1.0:
                local = local * scales[k]
            locals_.append(local)
        else:
            locals_.append(v)
    result = primitive(*(list(head) + locals_ + list(tail)))
    return DTensor(result, _Spec(mesh, out, out_shape))


@_rule("unary")
def _unary(args):
    op, x = args[0], args[1]
    kind = "neg" if op == "neg" else ("monotone" if op in _MONOTONE else None)
    return _pointwise(op, _C.unary, [op], [x], args[2:], kind, _aten("unary", op))


@_rule("binary")
def _binary(args):
    op, a, b = args[0], args[1], args[2]
    kind = "add" if op in _LINEAR_ADD else (op if op in ("mul", "div") else None)
    return _pointwise(op, _C.binary, [op], [a, b], args[3:], kind, _aten("binary", op))


@_rule("compare")
def _compare(args):
    return _pointwise(args[0], _C.compare, [args[0]], [args[1], args[2]], args[3:], None,
                      _aten("compare", args[0]))


@_rule("where")
def _where(args):
    return _pointwise("where", _C.where, [], [args[0], args[1], args[2]], args[3:], None, _aten("where"))


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


@_rule("matmul", "mm", "bmm")
def _matmul(args, name):
    a, b = args[0], args[1]
    aten = _aten(name)
    if not (_is_dt(a) and _is_dt(b)):
        raise RuntimeError(aten + " got mixed torch.Tensor and DTensor, need to convert all "
                           "torch.Tensor to DTensor before calling distributed operators!")
    mesh = _check_operands(aten, [a, b])
    sa, sb = list(a._spec.shape), list(b._spec.shape)
    if len(sb) == 1 and len(sa) >= 2:
        # matrix @ vector: the vector as a column, then the column dropped.
        return _squeeze([_matmul([a, _unsqueeze([b, 1])], name), [len(sa) - 1]])
    if len(sa) == 1 and len(sb) >= 2:
        return _squeeze([_matmul([_unsqueeze([a, 0]), b], name), [len(sb) - 2]])
    if len(sa) < 2 or len(sb) < 2:
        raise _op_error("dot", [a, b])
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
    def even(placement, shape, i):
        # PyTorch's product strategies keep only shardings that cut evenly.
        return not isinstance(placement, Shard) or shape[placement.dim] % mesh.shape[i] == 0

    want_a, want_b, out = [], [], []
    for i in range(mesh.ndim):
        have_a, have_b = a._spec.placements[i], b._spec.placements[i]
        best = None
        for ca, cb, co in candidates:
            if not (even(ca, sa, i) and even(cb, sb, i) and even(co, out_shape, i)):
                continue
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
    result = primitive(_local(a, want_a, out), _local(b, want_b, out))
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


@_rule("sum", "mean", "prod")
def _sum_like(args, name):
    v, dims, keepdim = args[0], args[1], args[2]
    _check_operands(name, [v])
    reduce_op = {"sum": "sum", "mean": "avg", "prod": "product"}[name]
    if name == "mean":
        # An average of unevenly cut shards is not the average: PyTorch
        # gathers such a dimension first.
        rank = len(v._spec.shape)
        reduced = list(range(rank)) if dims is None else [d % rank for d in dims]
        uneven = [d for i, p in enumerate(v._spec.placements)
                  if isinstance(p, Shard) and p.dim in reduced and v._spec.shape[p.dim] % v._spec.mesh.shape[i]
                  for d in [p.dim]]
        if uneven:
            v = DTensor(_local(v, _unshard_dims(v, uneven)), v._spec.with_placements(_unshard_dims(v, uneven)))
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


@_rule("extremum_dim", "arg_extremum", "cumsum")
def _along(args, name):
    # An op along one dimension (cumsum, max(dim), argmax(dim)): the
    # dimension is gathered first; a removed dimension shifts later shards
    # (cumsum keeps every dimension).
    removes = name != "cumsum"
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


@_rule("extremum_all")
def _extremum_all(args):
    v, is_max = args[0], args[1]
    _check_operands("max", [v])
    op = "max" if is_max else "min"
    want = [Replicate() if isinstance(p, Partial) else p for p in v._spec.placements]
    out = [Partial(op) if isinstance(p, Shard) else p for p in want]
    return DTensor(_C.extremum_all(_local(v, want), is_max), _Spec(v._spec.mesh, out, []))
