# The `torch` module. Its Rust part (`rust_attributes` in
# crates/tpu-torch/src/torch_c.rs, with torch._C) is made first; then this
# file and its parts run, in the order below, as one body in one namespace, so
# each part can use what the earlier ones define (the later ones add their
# `Tensor` methods by assignment; _forms.py mirrors the others and so comes
# after them). `import torch` then imports the submodules PyTorch's
# __init__ imports (the list is in crates/tpu-torch/src/prelude.rs).
# parts: _tensor.py _functions.py _reductions.py _sorting.py _mathops.py
# parts: _shapes.py _products.py _forms.py _elementwise.py _nnops.py _autocast.py _compile.py _complex.py
