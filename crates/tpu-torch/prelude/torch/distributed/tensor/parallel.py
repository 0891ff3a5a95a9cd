# torch.distributed.tensor.parallel: tensor and sequence parallelism as
# PyTorch's tutorials and TorchTitan write it. A ParallelStyle says how one
# module's parameters are placed on a 1-D mesh (ColwiseParallel shards a
# Linear's weight by rows, RowwiseParallel by columns, SequenceParallel
# replicates a norm's) and how its inputs and outputs are converted around
# its forward; `parallelize_module` applies styles by module path (with
# fnmatch wildcards). All of it is DTensor (distribute_module, from_local,
# redistribute), so each collective is a real one on the mesh's group and
# shows in the Report; parallelised parameters show in the Sharding view.
from fnmatch import fnmatch

import torch
import torch.nn as nn
from torch.distributed.tensor import DTensor, Replicate, Shard, distribute_module, distribute_tensor

__all__ = ["ParallelStyle", "ColwiseParallel", "RowwiseParallel", "SequenceParallel", "PrepareModuleInput",
           "PrepareModuleOutput", "parallelize_module", "loss_parallel"]


class ParallelStyle:
    src_data_rank = 0

    def _apply(self, module, device_mesh):
        raise NotImplementedError


def _to_dtensor(value, mesh, layout):
    # An input given as a local tensor is this rank's block of `layout`.
    if isinstance(value, DTensor) or not isinstance(value, torch.Tensor):
        return value
    return DTensor.from_local(value, mesh, (layout,), run_check=False)


def _converted(value, mesh, layout, desired, use_local_output):
    if layout is None:
        return value
    value = _to_dtensor(value, mesh, layout)
    if desired is not None and isinstance(value, DTensor) and tuple(value.placements) != (desired,):
        value = value.redistribute(placements=(desired,))
    return value.to_local() if use_local_output and isinstance(value, DTensor) else value


def _distributed(module, mesh, name, placement, src_data_rank):
    param = getattr(module, name)
    if param is None or isinstance(param, DTensor):
        return
    placed = distribute_tensor(param.detach(), mesh, [placement], src_data_rank=src_data_rank)
    module.register_parameter(name, nn.Parameter(placed, requires_grad=param.requires_grad))


class _LinearStyle(ParallelStyle):
    # Colwise and Rowwise: the first input converted to the layout the
    # module needs, the output redistributed to `output_layouts` (for
    # Rowwise, the partial sums of the rows' products made whole: an
    # all-reduce or a reduce-scatter).
    def _prepare_input(self, module, inputs, mesh):
        first = _converted(inputs[0], mesh, self.input_layouts[0], self.desired_input_layouts[0], False)
        return (first,) + tuple(inputs[1:])

    def _prepare_output(self, module, outputs, mesh):
        if tuple(outputs.placements) != self.output_layouts:
            outputs = outputs.redistribute(placements=self.output_layouts)
        return outputs.to_local() if self.use_local_output else outputs


class ColwiseParallel(_LinearStyle):
    def __init__(self, *, input_layouts=None, output_layouts=None, use_local_output=True):
        super().__init__()
        self.input_layouts = (input_layouts or Replicate(),)
        self.output_layouts = (output_layouts or Shard(-1),)
        self.desired_input_layouts = (Replicate(),)
        self.use_local_output = use_local_output

    def _partition(self, name, module, mesh):
        if isinstance(module, nn.Linear):
            # The weight is [out, in]: its rows, so each rank computes a
            # block of the output features.
            _distributed(module, mesh, "weight", Shard(0), self.src_data_rank)
            _distributed(module, mesh, "bias", Shard(0), self.src_data_rank)
        elif isinstance(module, nn.Embedding):
            _distributed(module, mesh, "weight", Shard(1), self.src_data_rank)

    def _apply(self, module, device_mesh):
        if not isinstance(module, (nn.Linear, nn.Embedding)):
            raise NotImplementedError("ColwiseParallel currently only support nn.Linear and nn.Embedding!")
        return distribute_module(module, device_mesh, self._partition, self._prepare_input, self._prepare_output)

    def __repr__(self):
        return ("ColwiseParallel(input_layouts=" + repr(self.input_layouts) + ", output_layouts="
                + repr(self.output_layouts) + ", use_local_output=" + str(self.use_local_output) + ")")


class RowwiseParallel(_LinearStyle):
    def __init__(self, *, input_layouts=None, output_layouts=None, use_local_output=True):
        super().__init__()
        self.input_layouts = (input_layouts or Shard(-1),)
        self.output_layouts = (output_layouts or Replicate(),)
        self.use_local_output = use_local_output

    def _partition(self, name, module, mesh):
        if isinstance(module, nn.Linear):
            _distributed(module, mesh, "weight", Shard(1), self.src_data_rank)
            _distributed(module, mesh, "bias", Replicate(), self.src_data_rank)
        elif isinstance(module, nn.Embedding):
            _distributed(module, mesh, "weight", Shard(0), self.src_data_rank)

    def _apply(self, module, device_mesh):
        if isinstance(module, nn.Linear):
            self.desired_input_layouts = (Shard(-1),)
        elif isinstance(module, nn.Embedding):
            self.desired_input_layouts = (Replicate(),)
        else:
            raise NotImplementedError("RowwiseParallel currently only support nn.Linear and nn.Embedding!")
        return distribute_module(module, device_mesh, self._partition, self._prepare_input, self._prepare_output)

    def __repr__(self):
        return ("RowwiseParallel(input_layouts=" + repr(self.input_layouts) + ", output_layouts="
                + repr(self.output_layouts) + ", use_local_output=" + str(self.use_local_output) + ")")


class SequenceParallel(ParallelStyle):
    # A module that works on each position alone (LayerNorm, RMSNorm,
    # dropout) runs on this rank's stretch of the sequence: its parameters
    # are replicated and its input is taken as sharded along `sequence_dim`.
    def __init__(self, *, sequence_dim=1, use_local_output=False):
        super().__init__()
        self.sequence_sharding = (Shard(sequence_dim),)
        self.use_local_output = use_local_output

    def _replicate(self, name, module, mesh):
        for key, param in list(module.named_parameters(recurse=False)):
            if not isinstance(param, DTensor):
                placed = DTensor.from_local(param.detach(), mesh, [Replicate()], run_check=False)
                module.register_parameter(key, nn.Parameter(placed, requires_grad=param.requires_grad))

    def _prepare_input(self, module, inputs, mesh):
        first = inputs[0]
        if isinstance(first, DTensor):
            return inputs
        if isinstance(first, torch.Tensor):
            return (DTensor.from_local(first, mesh, self.sequence_sharding, run_check=False),) + tuple(inputs[1:])
        raise ValueError("expecting input of " + str(module) + " to be a torch.Tensor or DTensor, but got "
                         + str(first))

    def _prepare_output(self, module, outputs, mesh):
        return outputs.to_local() if self.use_local_output else outputs

    def _apply(self, module, device_mesh):
        return distribute_module(module, device_mesh, self._replicate, self._prepare_input, self._prepare_output)

    def __repr__(self):
        return "SequenceParallel(sequence_dim=" + str(self.sequence_sharding[0].dim) + ", use_local_output=" + str(
            self.use_local_output) + ")"


def _as_tuple(layouts):
    if layouts is None or isinstance(layouts, (tuple, list)):
        return None if layouts is None else tuple(layouts)
    return (layouts,)


class PrepareModuleInput(ParallelStyle):
    def __init__(self, *, input_layouts=None, desired_input_layouts=None, input_kwarg_layouts=None,
                 desired_input_kwarg_layouts=None, use_local_output=False):
        self.input_layouts = _as_tuple(input_layouts)
        self.desired_input_layouts = _as_tuple(desired_input_layouts)
        self.use_local_output = use_local_output
        if self.input_layouts is not None:
            if self.desired_input_layouts is None:
                raise AssertionError("desired module inputs should not be None!")
            if len(self.input_layouts) != len(self.desired_input_layouts):
                raise AssertionError("input_layouts and desired_input_layouts should have same length!")
        if input_kwarg_layouts or desired_input_kwarg_layouts:
            raise NotImplementedError("PrepareModuleInput(input_kwarg_layouts=...) is not supported yet")

    def _prepare(self, inputs, mesh):
        if self.input_layouts is None:
            return inputs
        if len(inputs) != len(self.input_layouts):
            raise ValueError("module inputs and input_layouts should have same length!")
        return tuple(_converted(value, mesh, layout, desired, self.use_local_output)
                     for value, layout, desired in zip(inputs, self.input_layouts, self.desired_input_layouts))

    def _apply(self, module, device_mesh):
        module.register_forward_pre_hook(lambda _, inputs: self._prepare(inputs, device_mesh))
        return module


class PrepareModuleOutput(ParallelStyle):
    def __init__(self, *, output_layouts, desired_output_layouts, use_local_output=True):
        self.output_layouts = _as_tuple(output_layouts)
        self.desired_output_layouts = _as_tuple(desired_output_layouts)
        self.use_local_output = use_local_output
        if len(self.output_layouts) != len(self.desired_output_layouts):
            raise AssertionError("output_layouts and desired_output_layouts should have same length!")

    def _prepare(self, outputs, mesh):
        single = not isinstance(outputs, tuple)
        values = (outputs,) if single else outputs
        if len(values) != len(self.output_layouts):
            raise ValueError("module outputs and output_layouts should have same length!")
        out = tuple(_converted(value, mesh, layout, desired, self.use_local_output)
                    for value, layout, desired in zip(values, self.output_layouts, self.desired_output_layouts))
        return out[0] if single else out

    def _apply(self, module, device_mesh):
        module.register_forward_hook(lambda _, inputs, outputs: self._prepare(outputs, device_mesh))
        return module


def parallelize_module(module, device_mesh=None, parallelize_plan=None, *, src_data_rank=0):
    if device_mesh is None:
        from torch.distributed.tensor import _default_mesh
        device_mesh = _default_mesh()
    if parallelize_plan is None:
        import warnings
        warnings.warn("No parallelize_plan is provided and auto-parallel is not supported at the moment, so this "
                      "parallelize_module call will do nothing.")
        return module
    if device_mesh.ndim > 1:
        raise ValueError("Tensor Parallel only accepts a 1D DeviceMesh, but found " + str(device_mesh.ndim)
                         + "D! If you have a 2-D or N-D device_mesh, consider passing in device_mesh[\"tp\"]")
    if isinstance(parallelize_plan, ParallelStyle):
        parallelize_plan.src_data_rank = src_data_rank
        return parallelize_plan._apply(module, device_mesh)
    if not isinstance(parallelize_plan, dict):
        raise TypeError("Expect Union[ParallelStyle, Dict[str, ParallelStyle]] for parallelize_plan, "
                        + str(type(parallelize_plan)) + " found!")
    for path, style in parallelize_plan.items():
        atoms = path.split(".")
        if path == "":
            raise ValueError("Expect module path to be non-empty, but got empty string!")
        head, rest = atoms[0], ".".join(atoms[1:])
        for name, child in module.named_children():
            if fnmatch(name, head):
                plan = {rest: style} if rest else style
                parallelize_module(child, device_mesh, plan, src_data_rank=src_data_rank)
    return module


def loss_parallel():
    raise NotImplementedError("torch.distributed.tensor.parallel.loss_parallel is not supported yet")
