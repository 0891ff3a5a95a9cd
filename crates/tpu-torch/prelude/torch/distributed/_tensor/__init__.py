# torch.distributed._tensor: the name DTensor had before it became public,
# which tutorials and older programs still import. The same objects as
# torch.distributed.tensor.
from torch.distributed.tensor import *  # noqa: F401,F403
from torch.distributed.tensor import DTensor, DeviceMesh, Partial, Placement, Replicate, Shard, distribute_module
from torch.distributed.tensor import distribute_tensor, init_device_mesh
