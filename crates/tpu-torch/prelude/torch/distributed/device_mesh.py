# torch.distributed.device_mesh: a DeviceMesh arranges the world's ranks in an
# n-dimensional array (row-major, as `init_device_mesh` does) and gives each
# mesh dimension its process groups: along dimension i, the ranks that differ
# only in coordinate i. Every rank creates every group, in the same order, as
# PyTorch's `new_group` requires; a 1-D mesh over the whole world uses the
# default group. On the simulated slice rank r runs on chip r, so a mesh
# dimension's groups are chips along one torus axis when the mesh's shape
# follows the slice's (the Report's `world.meshes` says which).
import torch
import torch.distributed as dist


# Every distinct mesh the program made, in order, for the Report.
_meshes = []


def _prod(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def _shape_of(nested):
    shape = []
    level = nested
    while isinstance(level, (list, tuple)):
        shape.append(len(level))
        level = level[0] if len(level) else None
    return tuple(shape)


def _flatten(nested):
    if isinstance(nested, (list, tuple)):
        out = []
        for item in nested:
            out.extend(_flatten(item))
        return out
    return [int(nested)]


def _nest(flat, shape):
    if len(shape) == 1:
        return list(flat)
    step = len(flat) // shape[0]
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def _coordinate_of(index, shape):
    coordinate = []
    for size in reversed(shape):
        coordinate.append(index % size)
        index = index // size
    return tuple(reversed(coordinate))


def _index_of(coordinate, shape):
    index = 0
    for c, size in zip(coordinate, shape):
        index = index * size + c
    return index


class DeviceMesh:
    def __init__(self, device_type, mesh, *, mesh_dim_names=None, _init_backend=True, _groups=None,
                 _strides=None):
        if isinstance(mesh, torch.Tensor):
            mesh = mesh.tolist()
        self.device_type = device_type
        self._shape = _shape_of(mesh)
        self._ranks = _flatten(mesh)
        self._mesh_dim_names = tuple(mesh_dim_names) if mesh_dim_names is not None else None
        me = dist.get_rank()
        self._coordinate = None
        if me in self._ranks:
            self._coordinate = _coordinate_of(self._ranks.index(me), self._shape)
        # The layout's strides, as PyTorch prints them: row-major for a mesh
        # made whole, the parent's for a sub-mesh.
        self._strides = _strides if _strides is not None else tuple(
            _prod(self._shape[d + 1:]) for d in range(len(self._shape)))
        self._dim_groups = _groups if _groups is not None else self._make_groups()
        if self not in _meshes:
            _meshes.append(self)

    def _make_groups(self):
        # One group per line of the mesh along each dimension; this rank keeps
        # the one it is in. Every rank makes them all, in the same order.
        world = dist.get_world_size()
        groups = []
        for dim in range(len(self._shape)):
            if len(self._shape) == 1 and sorted(self._ranks) == list(range(world)):
                groups.append(dist.group.WORLD if dist.group.WORLD is not None else dist._default_group())
                continue
            mine = None
            for line in self._lines(dim):
                g = dist.new_group(line)
                if self._coordinate is not None and dist.get_rank() in line:
                    mine = g
            groups.append(mine)
        return groups

    def _lines(self, dim):
        # The rank lists along `dim`, in the order of the other coordinates.
        others = [s for i, s in enumerate(self._shape) if i != dim]
        count = 1
        for s in others:
            count *= s
        lines = []
        for k in range(count):
            rest = list(_coordinate_of(k, others)) if others else []
            line = []
            for c in range(self._shape[dim]):
                coordinate = rest[:dim] + [c] + rest[dim:]
                line.append(self._ranks[_index_of(coordinate, self._shape)])
            lines.append(line)
        return lines

    @property
    def mesh(self):
        return torch.tensor(_nest(self._ranks, self._shape), dtype=torch.int32)

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def mesh_dim_names(self):
        return self._mesh_dim_names

    def size(self, mesh_dim=None):
        if mesh_dim is None:
            return len(self._ranks)
        return self._shape[self._dim_index(mesh_dim)]

    def get_rank(self):
        return dist.get_rank()

    def get_coordinate(self):
        return self._coordinate

    def _dim_index(self, mesh_dim):
        if isinstance(mesh_dim, str):
            if self._mesh_dim_names is None or mesh_dim not in self._mesh_dim_names:
                raise KeyError("Mesh dimension '" + mesh_dim + "' does not exist. Available mesh dimensions are: "
                               + "mesh_dim_names=" + repr(self._mesh_dim_names))
            return self._mesh_dim_names.index(mesh_dim)
        return mesh_dim

    def get_group(self, mesh_dim=None):
        if mesh_dim is None:
            if self.ndim > 1:
                raise RuntimeError("Found the DeviceMesh have " + str(self.ndim)
                                   + " dimensions", "Optional kwarg `mesh_dim` needs to be specified when "
                                   "device_mesh.ndim > 1.", "If you want to get the list of all the ProcessGroups "
                                   "in the DeviceMesh,please use `get_all_groups()` instead.")
            return self._dim_groups[0]
        return self._dim_groups[self._dim_index(mesh_dim)]

    def get_all_groups(self):
        return list(self._dim_groups)

    def get_local_rank(self, mesh_dim=None):
        if mesh_dim is None:
            if self.ndim > 1:
                raise RuntimeError("Optional kwarg `mesh_dim` needs to be specified when device_mesh.ndim > 1.")
            mesh_dim = 0
        return self._coordinate[self._dim_index(mesh_dim)]

    def __getitem__(self, names):
        # mesh["tp"] (or a tuple of names): the sub-mesh along those dimensions
        # that contains this rank, reusing this mesh's groups.
        if self._mesh_dim_names is None:
            raise RuntimeError("Cannot slice a DeviceMesh without mesh_dim_names!")
        names = (names,) if isinstance(names, str) else tuple(names)
        if names == self._mesh_dim_names:
            return self
        dims = []
        for name in names:
            if name not in self._mesh_dim_names:
                raise KeyError("Invalid mesh_dim_names " + repr(names) + " specified. Valid mesh_dim_names are "
                               + repr(list(self._mesh_dim_names)) + ".")
            dims.append(self._mesh_dim_names.index(name))
        shape = [self._shape[d] for d in dims]
        ranks = []
        count = 1
        for s in shape:
            count *= s
        for k in range(count):
            sub = _coordinate_of(k, shape)
            coordinate = list(self._coordinate)
            for d, c in zip(dims, sub):
                coordinate[d] = c
            ranks.append(self._ranks[_index_of(coordinate, self._shape)])
        return DeviceMesh(self.device_type, _nest(ranks, shape), mesh_dim_names=names,
                          _groups=[self._dim_groups[d] for d in dims], _strides=tuple(self._strides[d] for d in dims))

    def __eq__(self, other):
        return (isinstance(other, DeviceMesh) and other._ranks == self._ranks and other._shape == self._shape
                and other._mesh_dim_names == self._mesh_dim_names)

    def __hash__(self):
        return hash((tuple(self._ranks), self._shape))

    def __repr__(self):
        # PyTorch 2.15's form: DeviceMesh((dp=2, tp=2), 'cpu', stride=(2, 1)).
        if self._mesh_dim_names is not None:
            sizes = "(" + ", ".join(n + "=" + str(s) for n, s in zip(self._mesh_dim_names, self._shape)) + ")"
        else:
            sizes = repr(tuple(self._shape))
        return "DeviceMesh(" + sizes + ", '" + self.device_type + "', stride=" + repr(tuple(self._strides)) + ")"


def init_device_mesh(device_type, mesh_shape, *, mesh_dim_names=None, backend_override=None):
    mesh_shape = tuple(mesh_shape)
    if mesh_dim_names is not None:
        if len(set(mesh_dim_names)) != len(mesh_dim_names):
            raise RuntimeError("Each mesh_dim_name must be unique.",
                               "Found repeated mesh_dim_name in mesh_dim_names " + repr(tuple(mesh_dim_names)))
        if len(mesh_shape) != len(mesh_dim_names):
            raise RuntimeError("mesh_shape and mesh_dim_names should have same length! Found len(mesh_dim_names): "
                               + str(len(mesh_dim_names)) + " and len(mesh_shape):" + str(len(mesh_shape)) + ".")
    if not dist.is_initialized():
        dist.init_process_group()
    count = 1
    for s in mesh_shape:
        count *= s
    world = dist.get_world_size()
    if count > world:
        raise RuntimeError("Mesh should not be bigger than default world size " + str(world) + ", but found "
                           + str(count) + " ranks!")
    if count != world:
        raise RuntimeError("DeviceMesh only supports meshes that cover the whole world here: the mesh has "
                           + str(count) + " ranks, the world " + str(world))
    return DeviceMesh(device_type, _nest(list(range(count)), mesh_shape), mesh_dim_names=mesh_dim_names)
