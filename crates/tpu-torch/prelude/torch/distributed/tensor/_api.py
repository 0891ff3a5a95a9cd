# DTensor: a Python subclass of torch.Tensor over the rank's local tensor, its
# autograd bridges (from_local, to_local), distribute_tensor, the Report's
# sharding notes, and `_dispatch`, which hands each torch._C primitive given a
# DTensor to the sharding rule registered for it with `@_rule`. Part of the
# module's body (see __init__.py).


_DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.float16, torch.uint8, torch.int32, torch.int64, torch.bool]


def _check_tensor_meta(local, shape_and_stride):
    # `from_local(run_check=True)`'s check that every rank's tensor agrees in
    # dtype and requires_grad (and shape and stride when the global shape is
    # not given), as PyTorch's: its all_gather_object over the world is two
    # all-gathers, the sizes then the data, here of the metadata as int64s.
    meta = [_DTYPES.index(local.dtype) if local.dtype in _DTYPES else -1, int(local.requires_grad)]
    if shape_and_stride:
        meta += [local.dim()] + list(local.shape) + list(local.stride())
    world = dist.get_world_size()
    cause = "DTensor.from_local(run_check=True) metadata check"
    with torch.no_grad():
        size = torch.tensor([len(meta)], dtype=torch.int64, device=local.device)
        sizes = torch.empty(world, dtype=torch.int64, device=local.device)
        _with_cause(cause, lambda: dist.all_gather_into_tensor(sizes, size), functional=False)
        longest = int(sizes.max().item())
        mine = torch.tensor(meta + [0] * (longest - len(meta)), dtype=torch.int64, device=local.device)
        everyone = torch.empty(world * longest, dtype=torch.int64, device=local.device)
        _with_cause(cause, lambda: dist.all_gather_into_tensor(everyone, mine), functional=False)
        rows = everyone.reshape(world, longest).tolist()
    if any(row[:len(meta)] != meta or sizes[r].item() != len(meta) for r, row in enumerate(rows)):
        raise ValueError("Inconsistent tensor metadata (including shape and stride) across ranks.")


class _FromTorchTensor(torch.autograd.Function):
    # `DTensor.from_local` under autograd: the gradient, laid out as the
    # DTensor is, is the local tensor's.
    @staticmethod
    def forward(ctx, local):
        return local

    @staticmethod
    def backward(ctx, grad):
        return grad


class _ToTorchTensor(torch.autograd.Function):
    # `DTensor.to_local()` under autograd, as PyTorch records it: the local
    # tensor's gradient is the DTensor's, laid out as `grad_placements` say
    # (the DTensor's own placements by default) and redistributed back.
    @staticmethod
    def forward(ctx, local, spec, grad_placements):
        ctx.spec = spec
        ctx.grad_placements = grad_placements
        return local

    @staticmethod
    def backward(ctx, grad):
        if ctx.grad_placements is not None:
            given = _normalize_placements(ctx.grad_placements, ctx.spec.mesh, len(ctx.spec.shape), "to_local")
            if list(given) != list(ctx.spec.placements):
                grad = _redistribute_local(grad, ctx.spec.with_placements(given), ctx.spec.placements,
                                           "DTensor to_local gradient")
        return grad, None, None


class DTensor(torch.Tensor):
    def __init__(self, local, spec):
        self._local_tensor = local
        self._spec = spec
        self._line = _C.user_line()

    # What a tensor says about itself: the global view.
    @property
    def shape(self):
        return torch.Size(list(self._spec.shape))

    @property
    def placements(self):
        return self._spec.placements

    @property
    def device_mesh(self):
        return self._spec.mesh

    @property
    def dtype(self):
        return self._local_tensor.dtype

    @property
    def device(self):
        return self._local_tensor.device

    @property
    def ndim(self):
        return len(self._spec.shape)

    @property
    def requires_grad(self):
        return self._local_tensor.requires_grad

    @property
    def is_leaf(self):
        return self._local_tensor.is_leaf

    @property
    def grad_fn(self):
        return self._local_tensor.grad_fn

    @property
    def grad(self):
        g = self._local_tensor.grad
        return None if g is None else DTensor(g, self._spec)

    @grad.setter
    def grad(self, value):
        _C.set_grad(self._local_tensor, None if value is None else _local_of(value, self._spec))

    @property
    def data(self):
        return DTensor(self._local_tensor.detach(), self._spec)

    @property
    def is_cuda(self):
        return False

    @property
    def T(self):
        return self.permute(*reversed(range(self.ndim)))

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self._spec.shape[dim]

    def dim(self):
        return len(self._spec.shape)

    def numel(self):
        n = 1
        for s in self._spec.shape:
            n *= s
        return n

    def element_size(self):
        return self._local_tensor.element_size()

    def to_local(self, grad_placements=None):
        if not torch.is_grad_enabled() or not self._local_tensor.requires_grad:
            return self._local_tensor
        return _ToTorchTensor.apply(self._local_tensor, self._spec, grad_placements)

    def full_tensor(self, grad_placements=None):
        return self.redistribute(self._spec.mesh, [Replicate()] * self._spec.mesh.ndim).to_local()

    def redistribute(self, device_mesh=None, placements=None, *, async_op=False, forward_dtype=None,
                     backward_dtype=None):
        mesh = device_mesh if device_mesh is not None else self._spec.mesh
        if placements is None:
            raise RuntimeError("placements is needed for redistribute!")
        if mesh != self._spec.mesh:
            raise NotImplementedError("Cross device mesh comm not supported yet!")
        placements = _normalize_placements(placements, mesh, self.ndim, "redistribute")
        local = self._local_tensor
        for i, (p, q) in enumerate(zip(self._spec.placements, placements)):
            if isinstance(q, Partial) and p != q:
                # Shard -> Partial(sum): a rank's rows stay where they are,
                # zeros elsewhere (the sum over ranks is the tensor).
                if not (isinstance(p, Shard) and q.reduce_op == "sum"):
                    raise RuntimeError("Can not redistribute from " + str(p) + " to " + str(q)
                                       + ", only Shard to Partial(sum) redistribution is supported!")
        if any(isinstance(q, Partial) and p != q for p, q in zip(self._spec.placements, placements)):
            return self._to_partial(placements)
        local = _redistribute_local(local, self._spec, placements)
        return DTensor(local, self._spec.with_placements(placements))

    def _to_partial(self, placements):
        # Each Shard that becomes Partial(sum) is gathered as zeros around
        # this rank's block; the other mesh dimensions go as usual.
        spec = self._spec
        middle = [Replicate() if isinstance(q, Partial) and p != q else q
                  for p, q in zip(spec.placements, placements)]
        sizes, offsets = _local_box(spec.shape, spec.mesh, spec.placements)
        kept = [p for p, q in zip(spec.placements, placements) if isinstance(q, Partial) and p != q]
        local = self._local_tensor
        for p in kept:
            d = p.dim
            before = list(local.shape)
            before[d] = offsets[d] if offsets[d] > 0 else 0
            after = list(local.shape)
            after[d] = spec.shape[d] - offsets[d] - local.shape[d]
            parts = []
            if before[d] > 0:
                parts.append(torch.zeros(before, dtype=local.dtype, device=local.device))
            parts.append(local)
            if after[d] > 0:
                parts.append(torch.zeros(after, dtype=local.dtype, device=local.device))
            local = torch.cat(parts, d)
        placed = [Replicate() if isinstance(q, Partial) and p != q else p for p, q in zip(spec.placements, placements)]
        local = _redistribute_local(local, spec.with_placements(placed), middle)
        return DTensor(local, spec.with_placements(placements))

    @staticmethod
    def from_local(local_tensor, device_mesh=None, placements=None, *, run_check=False, shape=None, stride=None):
        mesh = device_mesh
        if placements is None:
            placements = [Replicate()] * mesh.ndim
        placements = tuple(Shard(p.dim + local_tensor.dim()) if isinstance(p, Shard) and p.dim < 0 else p
                           for p in placements)
        if run_check:
            _check_tensor_meta(local_tensor, shape is None and stride is None)
            # As PyTorch: a Replicate placement is made true by broadcasting
            # the group's first member's block, into the given tensor itself.
            with torch.no_grad():
                for i, p in enumerate(placements):
                    if isinstance(p, Replicate):
                        g = mesh.get_group(i)
                        _with_cause("DTensor.from_local(run_check=True) on mesh dim " + _mesh_dim_name(mesh, i),
                                    lambda: dist.broadcast(local_tensor, src=g._ranks[0], group=g), functional=False)
        if shape is None:
            # As PyTorch, placements are not checked against the mesh here:
            # one too many fails on the mesh's shape.
            shape = list(local_tensor.shape)
            for i, p in enumerate(placements):
                if isinstance(p, Shard):
                    shape[p.dim] = shape[p.dim] * mesh.shape[i]
        if torch.is_grad_enabled() and local_tensor.requires_grad:
            # As PyTorch records it: the DTensor is not a leaf, its local
            # tensor's gradient comes back through this node.
            local_tensor = _FromTorchTensor.apply(local_tensor)
        return DTensor(local_tensor, _Spec(mesh, placements, shape))

    # The methods torch.Tensor has in Rust, over the local tensor or the
    # global view.
    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with " + ("no values" if self.numel() == 0 else
                                                                 "more than one value") + " is ambiguous")
        return bool(self.item())

    def item(self):
        if any(not isinstance(p, Replicate) for p in self._spec.placements):
            return self.full_tensor().item()
        return self._local_tensor.item()

    def tolist(self):
        return self.full_tensor().tolist()

    def cpu(self):
        return DTensor(self._local_tensor.cpu(), self._spec)

    def to(self, *args, **kwargs):
        return DTensor(self._local_tensor.to(*args, **kwargs), self._spec)

    def float(self):
        return DTensor(self._local_tensor.float(), self._spec)

    def double(self):
        return DTensor(self._local_tensor.double(), self._spec)

    def bfloat16(self):
        return DTensor(self._local_tensor.bfloat16(), self._spec)

    def long(self):
        return DTensor(self._local_tensor.long(), self._spec)

    def int(self):
        return DTensor(self._local_tensor.int(), self._spec)

    def bool(self):
        return DTensor(self._local_tensor.bool(), self._spec)

    def abs(self):
        return _C.unary("abs", self)

    def neg(self):
        return _C.unary("neg", self)

    def relu(self):
        return _C.unary("relu", self)

    def exp(self):
        return _C.unary("exp", self)

    def log(self):
        return _C.unary("log", self)

    def sqrt(self):
        return _C.unary("sqrt", self)

    def tanh(self):
        return _C.unary("tanh", self)

    def sigmoid(self):
        return _C.unary("sigmoid", self)

    def sin(self):
        return _C.unary("sin", self)

    def cos(self):
        return _C.unary("cos", self)

    def erf(self):
        return _C.unary("erf", self)

    def floor(self):
        return _C.unary("floor", self)

    def ceil(self):
        return _C.unary("ceil", self)

    def sign(self):
        return _C.unary("sign", self)

    # Python operators, through the torch functions (and so the dispatcher).
    def __add__(self, other):
        return torch.add(self, other)

    def __radd__(self, other):
        return torch.add(self, other)

    def __sub__(self, other):
        return torch.sub(self, other)

    def __rsub__(self, other):
        return _C.unary("neg", torch.sub(self, other))

    def __mul__(self, other):
        return torch.mul(self, other)

    def __rmul__(self, other):
        return torch.mul(self, other)

    def __truediv__(self, other):
        return torch.div(self, other)

    def __rtruediv__(self, other):
        # The primitive itself: torch.reciprocal is `1 / x`, which would
        # come back here.
        return _C.binary("div", other, self)

    def __matmul__(self, other):
        return torch.matmul(self, other)

    def __rmatmul__(self, other):
        return torch.matmul(other, self)

    def __pow__(self, other):
        return torch.pow(self, other)

    def __neg__(self):
        return _C.unary("neg", self)

    def __lt__(self, other):
        return torch.lt(self, other)

    def __le__(self, other):
        return torch.le(self, other)

    def __gt__(self, other):
        return torch.gt(self, other)

    def __ge__(self, other):
        return torch.ge(self, other)

    def __getitem__(self, index):
        # Basic indexing (ints, slices, None, ...) as selects and slices, each
        # through the dispatcher: a sharded dimension it cuts is gathered
        # first, the others keep their placements.
        items = list(index) if isinstance(index, tuple) else [index]
        for item in items:
            if isinstance(item, (torch.Tensor, list, bool)):
                raise NotImplementedError("indexing a DTensor with tensors, lists or bools is not supported yet")
        dots = [k for k, item in enumerate(items) if item is ...]
        if dots:
            k = dots[0]
            used = len([i for i in items if i is not None and i is not ...])
            items = items[:k] + [slice(None)] * (self.ndim - used) + items[k + 1:]
        out = self
        d = 0
        for item in items:
            if item is None:
                out = _C.unsqueeze(out, d)
                d += 1
            elif isinstance(item, slice):
                if not (item.start is None and item.stop is None and item.step in (None, 1)):
                    step = 1 if item.step is None else item.step
                    out = _C.slice(out, d, item.start, item.stop, step)
                d += 1
            else:
                out = _C.select(out, d, item)
        return out

    def __len__(self):
        return self._spec.shape[0]

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return ("DTensor(local_tensor=" + repr(self._local_tensor) + ", device_mesh=" + repr(self._spec.mesh)
                + ", placements=" + repr(self._spec.placements) + ")")

    def __tpu_dispatch__(name, args):
        return _dispatch(name, args)


def _local_of(value, spec):
    """`value`'s local block placed as `spec`: a DTensor redistributed, a
    plain tensor cut as `spec` cuts the global tensor."""
    if isinstance(value, DTensor):
        return _redistribute_local(value._local_tensor, value._spec, spec.placements)
    return value


def distribute_tensor(tensor, device_mesh=None, placements=None, *, src_data_rank=0):
    mesh = device_mesh if device_mesh is not None else _default_mesh()
    if isinstance(tensor, DTensor):
        raise ValueError("distribute_tensor: tensor is already a DTensor")
    placements = _normalize_placements(placements, mesh, tensor.dim(), "distribute_tensor")
    requires_grad = tensor.requires_grad
    local = tensor.detach()
    with torch.no_grad():
        # As PyTorch: mesh dimension by mesh dimension, the group's source
        # scatters its chunks (Shard) or broadcasts its block (Replicate), so
        # every rank ends with `src_data_rank`'s data; without a source rank
        # each keeps its own chunk and nothing is sent.
        for i, p in enumerate(placements):
            g = mesh.get_group(i)
            # The source is the member at index `src_data_rank` of each mesh
            # dimension's group, as PyTorch's mesh_scatter/mesh_broadcast take it.
            first = g._ranks[src_data_rank] if src_data_rank is not None else None
            cause = "distribute_tensor " + str(p) + " on mesh dim " + _mesh_dim_name(mesh, i)
            if isinstance(p, Shard):
                n = local.shape[p.dim]
                sizes, chunk = _chunk_sizes(n, mesh.shape[i])
                c = mesh.get_coordinate()[i]
                if first is not None and chunk > 0:
                    padded = _pad_dim(local, p.dim, mesh.shape[i] * chunk)
                    pieces = [padded.narrow(p.dim, k * chunk, chunk).contiguous() for k in range(mesh.shape[i])]
                    out = torch.empty(list(pieces[0].shape), dtype=local.dtype, device=local.device)
                    mine = pieces if dist.get_rank() == first else None
                    _with_cause(cause, lambda: dist.scatter(out, mine, src=first, group=g), functional=False)
                    local = out.narrow(p.dim, 0, sizes[c])
                else:
                    local = local.narrow(p.dim, min(c * chunk, n), sizes[c])
            elif first is not None:
                # Into the given tensor itself while no Shard has cut it, as
                # PyTorch's broadcast overwrites the input.
                x = local if local.shape == tensor.shape else local.clone()
                _with_cause(cause, lambda: dist.broadcast(x, src=first, group=g), functional=False)
                local = x
            if isinstance(p, Partial):
                # As PyTorch: each rank holds 1/n of the value (a sum's term).
                local = local / mesh.shape[i]
        local = local.contiguous()
    if requires_grad:
        local.requires_grad_(True)
    return DTensor(local, _Spec(mesh, placements, tensor.shape))


def distribute_module(module, device_mesh=None, partition_fn=None, input_fn=None, output_fn=None):
    # As PyTorch's: `partition_fn(name, submodule, mesh)` places each
    # submodule's parameters; what it leaves plain is replicated; `input_fn`
    # and `output_fn` run around the module's forward as hooks.
    mesh = device_mesh if device_mesh is not None else _default_mesh()
    if getattr(module, "_distribute_module_applied", False):
        raise RuntimeError("distribute_module should only be called once on a module, but it has already been "
                           "called on this module!")
    for name, submodule in module.named_modules():
        if partition_fn is not None:
            partition_fn(name, submodule, mesh)
        for key, param in list(submodule.named_parameters(recurse=False)):
            if not isinstance(param, DTensor):
                placed = distribute_tensor(param.detach(), mesh, [Replicate()] * mesh.ndim)
                submodule.register_parameter(key, torch.nn.Parameter(placed, requires_grad=param.requires_grad))
    if input_fn is not None:
        module.register_forward_pre_hook(lambda _, inputs: input_fn(module, inputs, mesh))
    if output_fn is not None:
        module.register_forward_hook(lambda mod, inputs, outputs: output_fn(mod, outputs, mesh))
    module._distribute_module_applied = True
    return module


def _embedding(input, weight, padding_idx):
    # F.embedding of a DTensor table on a 1-D mesh, as PyTorch's embedding
    # strategy: a table split by columns (Shard(1)) looks up whole indices and
    # gives its columns (Shard on the last dimension); one split by rows
    # (Shard(0)) looks up the indices in its range, zeros for the others, and
    # gives a Partial sum that an all-reduce completes (PyTorch's MaskPartial).
    spec = weight._spec
    if spec.mesh.ndim != 1:
        raise NotImplementedError("embedding of a DTensor on a mesh of more than one dimension is not supported yet")
    ids = input.to_local() if isinstance(input, DTensor) else input
    local = weight._local_tensor
    p = spec.placements[0]
    if isinstance(p, Shard) and p.dim == 0:
        start = spec.mesh.get_coordinate()[0] * _chunk_sizes(spec.shape[0], spec.mesh.shape[0])[1]
        inside = (ids >= start) & (ids < start + local.shape[0])
        rows = local[torch.where(inside, ids - start, torch.zeros_like(ids))]
        rows = rows * inside.unsqueeze(-1).to(rows.dtype)
        out = DTensor(rows, _Spec(spec.mesh, [Partial()], list(ids.shape) + [spec.shape[1]]))
    else:
        rows = local[ids]
        placement = Shard(len(ids.shape)) if isinstance(p, Shard) else p
        out = DTensor(rows, _Spec(spec.mesh, [placement], list(ids.shape) + [spec.shape[1]]))
    if padding_idx is not None:
        raise NotImplementedError("embedding(padding_idx=...) of a DTensor table is not supported yet")
    return out


def _note_sharding(names):
    # At the end of the run (called by the interpreter with the program's
    # variables, sorted by name): the meshes, and each DTensor a variable
    # holds, or a module's parameters do, for the Report's Sharding view.
    meshes = _device_mesh._meshes
    for m in meshes:
        _C.dist_note_mesh(list(m.shape), list(m.mesh_dim_names) if m.mesh_dim_names is not None else None,
                          list(m._ranks))
    seen = set()
    # Kept alive to the end: `p.grad` makes a new DTensor each time, and an
    # id freed and reused would make a later tensor look already noted.
    kept = []

    def note(name, t):
        key = id(t._local_tensor)
        if key in seen or t._spec.mesh not in meshes:
            return
        seen.add(key)
        kept.append(t)
        spec = t._spec
        sizes, offsets = _local_box(spec.shape, spec.mesh, spec.placements)
        local = t._local_tensor
        _C.dist_note_dtensor(name, t._line, meshes.index(spec.mesh), [repr(p) for p in spec.placements],
                             list(spec.shape), list(local.shape), offsets, str(local.dtype),
                             local.numel() * local.element_size())

    # The program's own DTensor variables first, then modules' parameters,
    # the module with the most first (the whole model before a loop
    # variable left on one of its layers).
    names = [(name, value) for name, value in names if not name.startswith("_")]
    for name, value in names:
        if isinstance(value, DTensor):
            note(name, value)
    modules = [(name, value) for name, value in names if isinstance(value, torch.nn.Module)]
    modules = sorted(modules, key=lambda item: -len(list(item[1].parameters())))
    for name, value in modules:
        if isinstance(value, torch.nn.Module):
            for path, p in value.named_parameters():
                if isinstance(p, DTensor):
                    note(name + "." + path, p)
                    if p.grad is not None:
                        note(name + "." + path + ".grad", p.grad)


def _default_mesh():
    return init_device_mesh("tpu", (dist.get_world_size(),))


# The sharding rules, by torch._C primitive: each rule registers itself where it
# is written with `@_rule(name, ...)`, as PyTorch's `@register_op_strategy`
# does. A rule is called with the primitive's arguments; a rule that serves
# several primitives is also given the primitive's name.
_RULES = {}


def _rule(*names):
    def register(rule):
        for name in names:
            _RULES[name] = (rule, len(names) > 1)
        return rule
    return register


_ATEN_NAMES = {"fill_random": "normal_", "put": "index_put_", "take": "take", "nonzero": "nonzero"}


def _dispatch(name, args):
    entry = _RULES.get(name)
    if entry is None:
        raise _op_error(_ATEN_NAMES.get(name, name), list(args))
    rule, named = entry
    return rule(args, name) if named else rule(args)
