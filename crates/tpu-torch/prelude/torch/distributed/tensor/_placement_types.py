# torch.distributed.tensor's placements (Shard, Replicate, Partial), a DTensor's
# spec (its mesh, placements and global shape), and the placements given by a
# user checked and normalised. Part of the module's body (see __init__.py).


class Placement:
    def is_shard(self, dim=None):
        return False

    def is_replicate(self):
        return False

    def is_partial(self, reduce_op=None):
        return False


class Shard(Placement):
    def __init__(self, dim):
        self.dim = dim

    def is_shard(self, dim=None):
        return dim is None or dim == self.dim

    def __eq__(self, other):
        return isinstance(other, Shard) and other.dim == self.dim

    def __hash__(self):
        return hash(("Shard", self.dim))

    def __repr__(self):
        return "Shard(dim=" + str(self.dim) + ")"

    def __str__(self):
        return "S(" + str(self.dim) + ")"


class Replicate(Placement):
    def is_replicate(self):
        return True

    def __eq__(self, other):
        return isinstance(other, Replicate)

    def __hash__(self):
        return hash("Replicate")

    def __repr__(self):
        return "Replicate()"

    def __str__(self):
        return "R"


class Partial(Placement):
    def __init__(self, reduce_op="sum"):
        self.reduce_op = reduce_op

    def is_partial(self, reduce_op=None):
        return reduce_op is None or reduce_op == self.reduce_op

    def __eq__(self, other):
        return isinstance(other, Partial) and other.reduce_op == self.reduce_op

    def __hash__(self):
        return hash(("Partial", self.reduce_op))

    def __repr__(self):
        return "Partial(" + self.reduce_op + ")"

    def __str__(self):
        return "P(" + self.reduce_op + ")"


class _Spec:
    def __init__(self, mesh, placements, shape):
        self.mesh = mesh
        self.placements = tuple(placements)
        self.shape = tuple(shape)

    def with_placements(self, placements):
        return _Spec(self.mesh, placements, self.shape)


def _normalize_placements(placements, mesh, ndim, where):
    if placements is None:
        placements = [Replicate()] * mesh.ndim
    placements = list(placements)
    if len(placements) != mesh.ndim:
        raise ValueError("`placements` must have the same length as `device_mesh.ndim`! Found placements length: "
                         + str(len(placements)) + ", and device_mesh.ndim: " + str(mesh.ndim) + ".")
    out = []
    for p in placements:
        if isinstance(p, Shard) and p.dim < 0:
            p = Shard(p.dim + ndim)
        if isinstance(p, Shard) and (p.dim < 0 or p.dim >= max(ndim, 1)):
            raise IndexError("Dimension out of range (expected to be in range of [" + str(-max(ndim, 1)) + ", "
                             + str(max(ndim, 1) - 1) + "], but got " + str(p.dim) + ")")
        out.append(p)
    return tuple(out)
