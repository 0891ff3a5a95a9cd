# torch.distributed.tensor: DTensor, a global tensor of which each rank holds a
# block (its local tensor), placed on a DeviceMesh by one placement per mesh
# dimension: Shard(d) cuts tensor dimension d as torch.chunk does, Replicate()
# keeps a whole copy, Partial(op) holds a term that reducing over the mesh
# dimension (sum, avg, max, min) gives the value.
#
# A DTensor is a Python subclass of torch.Tensor whose class defines
# `__tpu_dispatch__`: every torch._C primitive given one calls `_dispatch`
# here instead, which decides the output's placements as PyTorch's sharding
# propagation does (_math_ops.py, _tensor_ops.py), redistributes the operands that need it
# with real collectives on the mesh's groups, and runs the primitive on the
# local tensors. So the whole torch API built on the primitives works on
# DTensors, and autograd runs on the local tensors: a DTensor's gradient is
# the local gradient placed as the tensor is: a redistribution's backward
# runs the collectives PyTorch's does (`_redistribute_local`), and a
# replicated operand of an op with a sharded output has its gradient summed
# over the mesh (`_local` in _math_ops.py), where PyTorch keeps it Partial.
#
# The module's body is this file and its parts, run in this order in one
# namespace: the placements, DTensor and its factories, redistribution, then
# the sharding rules, which register themselves with `@_rule` (in _api.py):
# parts: _placement_types.py _api.py _redistribute.py _math_ops.py _tensor_ops.py
import torch
import torch.distributed as dist
import torch.distributed.device_mesh as _device_mesh
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
_C = torch._C
