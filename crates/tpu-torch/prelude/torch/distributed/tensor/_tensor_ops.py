# Sharding rules, continued (one namespace with _math_ops.py): views and
# copies, which move a Shard with the dimension it names, and the primitives of
# autograd and in-place writes, which act on the local tensors. Each rule
# registers itself with `@_rule` (_api.py).


# Views.

@_rule("view", "reshape")
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
                if first_in and first_out and first_in[0] == p.dim and shape[p.dim] % m == 0:
                    if sizes[first_out[0]] % m != 0:
                        aten = "aten." + name + ".default"
                        raise RuntimeError(
                            "Cannot unflatten unevenly sharded tensor: output dimension " + str(first_out[0])
                            + " (size " + str(sizes[first_out[0]]) + ") is not evenly divisible by mesh dimension "
                            + str(k) + " (size " + str(m) + "). Please redistribute the tensor before this "
                            "operation." + _propagation_failed("aten.view.default", [v, list(args[1])],
                                                                v._spec.mesh))
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


@_rule("permute")
def _permute(args):
    v, dims = args[0], list(args[1])
    rank = len(v._spec.shape)
    dims = [d % rank for d in dims]
    out = _moved(v, lambda d: dims.index(d))
    shape = [v._spec.shape[d] for d in dims]
    return DTensor(_C.permute(v._local_tensor, args[1]), _Spec(v._spec.mesh, out, shape))


@_rule("transpose")
def _transpose(args):
    v, d0, d1 = args[0], args[1], args[2]
    rank = len(v._spec.shape)
    d0, d1 = d0 % rank, d1 % rank
    out = _moved(v, lambda d: d1 if d == d0 else (d0 if d == d1 else d))
    shape = list(v._spec.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    return DTensor(_C.transpose(v._local_tensor, d0, d1), _Spec(v._spec.mesh, out, shape))


@_rule("unsqueeze")
def _unsqueeze(args):
    v, d = args[0], args[1]
    rank = len(v._spec.shape) + 1
    d = d % rank
    out = _moved(v, lambda x: x + 1 if x >= d else x)
    shape = list(v._spec.shape)
    shape.insert(d, 1)
    return DTensor(_C.unsqueeze(v._local_tensor, d), _Spec(v._spec.mesh, out, shape))


@_rule("squeeze")
def _squeeze(args):
    v, dims = args[0], args[1]
    shape = list(v._spec.shape)
    rank = len(shape)
    gone = [d for d in range(rank) if shape[d] == 1 and (dims is None or d in [x % rank for x in dims])]
    out = _moved(v, lambda x: x - sum(1 for g in gone if g < x))
    new_shape = [s for d, s in enumerate(shape) if d not in gone]
    return DTensor(_C.squeeze(v._local_tensor, gone), _Spec(v._spec.mesh, out, new_shape))


@_rule("expand")
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


@_rule("contiguous", "clone", "cast", "to_device", "detach")
def _same_spec(args, name):
    v = args[0]
    result = getattr(_C, name)(*([v._local_tensor] + list(args[1:])))
    return DTensor(result, v._spec)


@_rule("slice", "select")
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


@_rule("cat")
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


@_rule("along_dims")
def _along_dims(args):
    v, dims, compute = args[0], args[1], args[2]
    _check_operands("softmax", [v])
    want = _unshard_dims(v, dims)
    result = compute(_local(v, want))
    return DTensor(result, v._spec.with_placements(want))


@_rule("stride")
def _stride(args):
    shape = args[0]._spec.shape
    strides = []
    step = 1
    for s in reversed(shape):
        strides.append(step)
        step *= max(s, 1)
    return tuple(reversed(strides))


# Autograd and writes.

@_rule("backward")
def _backward(args):
    v, gradient, retain = args[0], args[1], args[2]
    seed = None
    if gradient is not None:
        if not _is_dt(gradient):
            raise RuntimeError("aten.backward: got mixed torch.Tensor and DTensor, need to convert all "
                               "torch.Tensor to DTensor before calling distributed operators!")
        seed = _local_of(gradient, v._spec)
    return _C.backward(v._local_tensor, seed, retain)


@_rule("requires_grad_")
def _requires_grad(args):
    _C.requires_grad_(args[0]._local_tensor, args[1])
    return args[0]


@_rule("parameter")
def _parameter(args):
    data, requires_grad = args[0], args[1]
    local = _C.parameter(data._local_tensor, requires_grad)
    p = DTensor(local, data._spec)
    p._is_param = True
    return p


@_rule("autograd_grad")
def _autograd_grad(args):
    root, seed, inputs, retain = args[0], args[1], args[2], args[3]
    local_root = root._local_tensor if _is_dt(root) else root
    local_seed = _local_of(seed, root._spec) if _is_dt(seed) else seed
    local_inputs = [x._local_tensor if _is_dt(x) else x for x in inputs]
    grads = _C.autograd_grad(local_root, local_seed, local_inputs, retain)
    return tuple(DTensor(g, x._spec) if (g is not None and _is_dt(x)) else g for g, x in zip(grads, inputs))


@_rule("assign", "write")
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


@_rule("fill_random")
def _fill_random(args):
    # normal_, uniform_ (and so nn.init) on a DTensor: on a CPU mesh, which
    # PyTorch's recordings here run on, it has no offset-based RNG tracker and
    # each rank fills its own block from its own generator, so ranks seeded
    # alike draw alike blocks. Done the same way here.
    v = args[0]
    _C.fill_random(v._local_tensor, *args[1:])
    return v


@_rule("set_data")
def _set_data(args):
    v, value = args[0], args[1]
    if not _is_dt(value):
        raise RuntimeError("setting .data of a DTensor to a plain tensor is not supported")
    _C.set_data(v._local_tensor, value._local_tensor)
    v._spec = value._spec
    return None


@_rule("full_like")
def _full_like(args):
    v, value, dtype, device, requires_grad = args
    local = torch.full_like(v._local_tensor, value, dtype=dtype, device=device, requires_grad=requires_grad)
    placements = [Replicate() if isinstance(p, Partial) else p for p in v._spec.placements]
    if placements != list(v._spec.placements):
        local = torch.full(_local_box(v._spec.shape, v._spec.mesh, placements)[0], value,
                           dtype=dtype or v.dtype, device=device or v.device)
    return DTensor(local, _Spec(v._spec.mesh, placements, v._spec.shape))


@_rule("is_contiguous", "same_storage", "retain_grad", "rename_grad_fn")
def _local_only(args, name):
    # Primitives that read the local tensors only.
    values = [a._local_tensor if _is_dt(a) else a for a in args]
    return getattr(_C, name)(*values)


@_rule("detach_")
def _detach_(args):
    _local_only(args, "detach_")
    return args[0]


@_rule("is_parameter")
def _is_parameter(args):
    return getattr(args[0], "_is_param", False)


@_rule("grad")
def _grad(args):
    return args[0].grad


@_rule("set_grad")
def _set_grad(args):
    return _C.set_grad(args[0]._local_tensor, None if args[1] is None else _local_of(args[1], args[0]._spec))
