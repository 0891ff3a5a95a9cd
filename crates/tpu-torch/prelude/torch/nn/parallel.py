# torch.nn.parallel: DistributedDataParallel as nn/parallel/distributed.py and
# reducer.cpp define it. Built, it broadcasts rank 0's parameters and buffers
# (one coalesced broadcast); every forward with `broadcast_buffers` broadcasts
# the buffers again. The first backward reduces every gradient in one bucket
# (PyTorch 2.15 buckets by size only with `find_unused_parameters`); from the
# second on, the reducer's rebuilt buckets: the parameters in reverse order,
# the first bucket capped at 1 MiB (with the default cap) and the others at
# `bucket_cap_mb`, 25 by default. At the end of backward each bucket's gradients, each multiplied by
# 1/world_size as the reducer copies them in, are all-reduced (summed) and
# copied back. Unlike the reducer, the program reduces a bucket when backward
# has finished rather than from a hook as its last gradient is made (the
# values are the same); on the simulated timeline the bucket's all-reduce
# starts where backward accumulated the last of its gradients (`grads_of`),
# so it overlaps the rest of backward as it would on a TPU (the autograd
# walk runs nodes in PyTorch's order, latest made first, so the last layer's
# gradients are made first).
import torch
import torch.distributed as dist
from torch.nn import Module

_DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024


def _flat(tensors):
    return torch.cat([t.detach().reshape(-1) for t in tensors])


def _unflatten_into(flat, tensors):
    offset = 0
    for t in tensors:
        n = t.numel()
        t.copy_(flat[offset:offset + n].reshape(t.shape))
        offset += n


class DistributedDataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0, broadcast_buffers=None,
                 init_sync=True, process_group=None, bucket_cap_mb=None, find_unused_parameters=False,
                 check_reduction=False, gradient_as_bucket_view=False, static_graph=False,
                 delay_all_reduce_named_params=None, param_to_hook_all_reduce=None, mixed_precision=None,
                 device_mesh=None, skip_all_reduce_unused_params=False, bucket_cap_mb_list=None,
                 batched_grad_copy=False, forward_sync_buffers=None, lazy_bucket_allocation=False):
        super().__init__()
        if not any(p.requires_grad for p in module.parameters()):
            raise RuntimeError(
                "DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.")
        if device_ids is not None or output_device is not None:
            devices = "{" + ", ".join(sorted(set("device(type='" + p.device.type + "')"
                                                 for p in module.parameters()))) + "}"
            raise ValueError(
                "DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device "
                "GPU modules or CPU modules, but got device_ids " + str(device_ids) + ", output_device "
                + str(output_device) + ", and module parameters " + devices + ".")
        if broadcast_buffers is None:
            broadcast_buffers = True if forward_sync_buffers is None else forward_sync_buffers
        self.device_ids = None
        self.output_device = None
        self.module = module
        self.process_group = process_group if process_group is not None else dist._default_group()
        self.dim = dim
        self.broadcast_buffers = broadcast_buffers
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.static_graph = static_graph
        self.require_backward_grad_sync = True
        self.require_forward_param_sync = True
        default_cap = bucket_cap_mb is None
        if default_cap:
            bucket_cap_mb = 25
        self.bucket_bytes_cap = int(bucket_cap_mb * 1024 * 1024)
        self._first_bucket_bytes_cap = _DEFAULT_FIRST_BUCKET_BYTES if default_cap else self.bucket_bytes_cap
        self._params = [p for p in module.parameters() if p.requires_grad]
        if static_graph or not find_unused_parameters:
            self._buckets = [list(reversed(self._params))]
            self._rebuild = True
        else:
            self._buckets = self._assign_buckets()
            self._rebuild = False
        self._callback_queued = False
        # Indices (in `parameters()` order) of parameters the last reduced
        # backward gave no gradient: the next forward refuses them.
        self._unused = []
        if init_sync:
            self._sync_states(list(module.parameters()) + list(module.buffers()),
                              "DDP construction: rank 0's parameters and buffers")

    def _assign_buckets(self):
        # Reverse parameter order, split where a bucket would pass its cap or
        # the dtype changes (`_compute_bucket_assignment_by_size`).
        buckets = []
        current = []
        size = 0
        dtype = None
        for p in reversed(self._params):
            limit = self._first_bucket_bytes_cap if not buckets else self.bucket_bytes_cap
            if current and (p.dtype != dtype):
                buckets.append(current)
                current, size = [], 0
            current.append(p)
            dtype = p.dtype
            size += p.numel() * p.element_size()
            if size >= limit:
                buckets.append(current)
                current, size = [], 0
        if current:
            buckets.append(current)
        return buckets

    def _sync_states(self, tensors, cause):
        by_dtype = {}
        for t in tensors:
            by_dtype.setdefault(t.dtype, []).append(t)
        with torch.no_grad():
            for group in by_dtype.values():
                flat = _flat(group)
                dist._run("broadcast", "broadcast", self.process_group, flat, [flat],
                          src=self.process_group._ranks[0], cause=cause)
                _unflatten_into(flat, group)

    def forward(self, *inputs, **kwargs):
        if self._unused and not self.find_unused_parameters:
            raise RuntimeError(
                "Expected to have finished reduction in the prior iteration before starting a new one. This error "
                "indicates that your module has parameters that were not used in producing loss. You can enable "
                "unused parameter detection by passing the keyword argument `find_unused_parameters=True` to "
                "`torch.nn.parallel.DistributedDataParallel`, and by \nmaking sure all `forward` function outputs "
                "participate in calculating loss. \nIf you already have done the above, then the distributed data "
                "parallel module wasn't able to locate the output tensors in the return value of your module's "
                "`forward` function. Please include the loss function and the structure of the return value of "
                "`forward` of your module when reporting this issue (e.g. list, dict, iterable).\nParameter indices "
                "which did not receive grad for rank " + str(dist.get_rank()) + ": "
                + " ".join(str(i) for i in self._unused)
                + "\n In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or "
                "DETAIL to print out information about which particular parameters did not receive gradient on "
                "this rank as part of this error")
        if self.broadcast_buffers and self.require_forward_param_sync:
            buffers = list(self.module.buffers())
            if buffers:
                self._sync_states(buffers, "DDP forward: rank 0's buffers")
        out = self.module(*inputs, **kwargs)
        if torch.is_grad_enabled() and self.require_backward_grad_sync and not self._callback_queued:
            self._callback_queued = True
            torch._backward_callbacks.append(self._reduce_gradients)
        return out

    def _reduce_gradients(self):
        self._callback_queued = False
        world = len(self.process_group._ranks)
        self._unused = [i for i, p in enumerate(self._params) if p.grad is None]
        pending = []
        with torch.no_grad():
            for i, bucket in enumerate(self._buckets):
                grads = []
                for p in bucket:
                    g = p.grad if p.grad is not None else torch.zeros_like(p)
                    grads.append(g * (1.0 / world))
                flat = _flat(grads)
                nbytes = flat.numel() * flat.element_size()
                work = dist._run("all_reduce", "all_reduce", self.process_group, flat, [flat], "SUM",
                                 async_op=True, grads_of=bucket,
                                 cause="DDP bucket " + str(i) + " (" + str(len(bucket)) + " gradients, "
                                 + str(nbytes) + " bytes)")
                pending.append((work, flat, bucket))
            for work, flat, bucket in pending:
                work.wait()
                offset = 0
                for p in bucket:
                    n = p.numel()
                    part = flat[offset:offset + n].reshape(p.shape)
                    # A parameter backward did not reach keeps no gradient.
                    if p.grad is not None:
                        p.grad.copy_(part)
                    offset += n
        if self._rebuild:
            self._rebuild = False
            self._buckets = self._assign_buckets()

    def no_sync(self):
        return _NoSync(self)

    def __getstate__(self):
        raise NotImplementedError("pickling DistributedDataParallel is not supported")


class _NoSync:
    def __init__(self, ddp):
        self.ddp = ddp

    def __enter__(self):
        self.old = self.ddp.require_backward_grad_sync
        self.ddp.require_backward_grad_sync = False

    def __exit__(self, *exc):
        self.ddp.require_backward_grad_sync = self.old
        return False


class DataParallel(Module):
    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        raise NotImplementedError(
            "torch.nn.DataParallel is not supported: it splits a batch across the GPUs of one process; "
            "use DistributedDataParallel with tpu run --nproc-per-node N")
