//! The runtime between the language and the hardware: device tensors, the
//! dispatcher that sends each op to a backend and logs it, the reference backend
//! that is the definition of every op, PyTorch-exact tensor printing, and the
//! `Report` that every front end renders.
//!
//! Backends are trait objects so that the wgpu backend can live in its own crate
//! (the only one that imports wgpu) and be chosen at run time.

mod autograd;
mod backend;
mod cache;
pub mod compile;
pub mod conformance;
pub mod data;
pub mod distributed;
pub mod format;
mod fusion;
mod placement;
mod records;
mod reduce;
mod reference;
mod report;
pub mod rng;
mod runtime;
mod tensor;
mod views;
mod work;

pub use autograd::{Node, Walk, WalkStep};
pub use backend::{
    Backend, BackendError, BackendKind, BackendLabel, BufferId, Dispatched, FusedDispatch,
    Measured, Operand, ReadFuture, SharedBackend, run_op,
};
pub use cache::CacheEntry;
pub use data::{HostData, Scalar};
pub use fusion::EagerMode;
pub use reference::ReferenceBackend;
/// Threads the reference backend's float32 products may be shared with where it
/// has none of its own (the browser's Web Workers).
pub use reference::helpers as product_helpers;
pub use report::{
    CacheStats, Diagnostic, FallbackGroup, KernelRecord, NonFinite, OpRecord, Report, RunBound,
    RunSummary, SourceSpan, SyncGroup, SyncRecord,
};
pub use runtime::{
    CommItem, MxuFit, PallasOperand, PallasRecord, Runtime, RuntimeError, WorldMaker, WorldSeat,
    c_type_name, scalar_type_name,
};
pub use tensor::{Device, Home, Tensor};
/// A convolution as the MXU runs it, for `Runtime::set_conv`.
pub use tpu_device::cost::Conv;
pub use views::{IndexItem, infer_shape, normalize_axis};
