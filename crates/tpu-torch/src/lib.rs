//! The torch surface on `tpu-python` (RustPython): `torch._C` as a native
//! module, the tensor type (`torch._C._TensorBase`, which the prelude's
//! `torch.Tensor` subclasses, so tensors are instances of `torch.Tensor` as in
//! PyTorch), and the Python prelude (`crates/tpu-lang/prelude/`) served as the
//! `torch` and `jax` packages.
//!
//! **Partial: being ported.** The prelude imports whole; of `torch._C`'s
//! primitives only those `PORTED` lists run here (the rest raise
//! `NotImplementedError` naming the primitive), and the `torch` module's Rust
//! part has its dtypes, `device`, `Size` and `full`. Everything else still runs
//! on `tpu-lang`'s own interpreter, which `tpu run` and the page use.

mod args;
mod autograd;
mod factories;
mod generators;
mod indexing;
mod natives;
mod printing;
mod runtime;
mod serve;
mod torch_c;

use std::rc::Rc;
use tpu_runtime::Runtime;

/// The primitives of `torch._C` this crate has ported so far.
pub const PORTED: &[&str] = natives::PORTED;

/// Runs `source` with `import torch` available, on `runtime`, on this
/// thread (which should have [`tpu_python::STACK_BYTES`] of stack).
pub fn run(
    source: &str,
    runtime: &mut Runtime,
    mut options: tpu_python::Options,
) -> tpu_python::Outcome {
    options
        .extensions
        .native
        .push(torch_c::_tpu_torch::module_def);
    options.extensions.find_module = Some(Rc::new(serve::find_module));
    runtime.reset_session_state();
    torch_c::_tpu_torch::reset_seed();
    torch_c::_tpu_torch::reset_classes();
    generators::reset();
    runtime::with_runtime_installed(runtime, || tpu_python::run(source, options))
}
