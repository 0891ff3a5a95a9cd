# torch.backends.cuda: no CUDA here (as in PyTorch's CPU-only build); the
# matmul flags keep PyTorch's defaults and may be set.


class _MatmulFlags:
    def __init__(self):
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built():
    return False
