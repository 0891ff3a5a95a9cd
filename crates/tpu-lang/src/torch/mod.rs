//! The torch half of the crate: what `import torch` gives a program. The `torch`
//! module's Rust part (`module`: dtypes, devices, `torch.tensor`, `torch.full` and
//! the seeded random factories), the `torch._C` primitives the prelude is written
//! against (`native`), tensor attributes, Rust methods and Python operators
//! (`tensor`), the grad-mode and RNG context managers (`contexts`), indexing and indexed assignment (`indexing`), the `torch_tpu`
//! module (`torch_tpu`), and the Python prelude (`crates/tpu-lang/prelude/torch/`, loaded
//! by `python::library`, its Rust side in `prelude`) that holds every other torch function and `Tensor` method. Each
//! torch function has one home: a name the prelude defines is not also
//! registered in Rust (`prelude`'s tests check it). `surface` describes it all as
//! data for the inventory test.

pub(crate) mod contexts;
pub(crate) mod indexing;
pub(crate) mod module;
pub(crate) mod native;
pub(crate) mod prelude;
pub(crate) mod pytorch_names;
pub(crate) mod scalars;
pub mod surface;
pub(crate) mod tensor;
pub(crate) mod torch_tpu;
