# torch.backends: the flags scripts set for CUDA, cuDNN and MPS. This
# playground has none of them, so the queries answer False and the flags are
# plain attributes a script may set (they change nothing here), with the
# defaults PyTorch 2.15 has.
