//! The contract between the dispatcher and a backend. A backend owns device
//! buffers, runs one `Op` at a time into a fresh buffer, and reads buffers back
//! asynchronously: on WebGPU a readback can only complete after the browser's event
//! loop turns, so reading is a future everywhere, and callers `.await` it.

mod shared;
use crate::data::HostData;
use serde::{Deserialize, Serialize};
pub use shared::SharedBackend;
use std::future::Future;
use std::pin::Pin;
use tpu_ir::{DType, FusedKernel, Op, Shape};

/// A buffer owned by one backend. Ids are never reused within a backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BufferId(pub u64);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// The CPU reference in this crate: the definition of every op.
    Reference,
    /// WGSL compute shaders through wgpu (WebGPU in browsers, Vulkan natively).
    Wgpu,
}

impl BackendKind {
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Reference => "reference",
            BackendKind::Wgpu => "wgpu",
        }
    }
}

/// A backend as a person is shown it (see `Backend::label`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendLabel {
    pub text: String,
    /// Whether `tpu` tensors are computed by the CPU: a software adapter
    /// (SwiftShader, llvmpipe) or the reference backend. Measured times then
    /// say little about a GPU.
    pub software: bool,
}

/// An input to an op: which buffer, and the logical shape it holds.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    pub buffer: BufferId,
    pub shape: &'a Shape,
    pub dtype: DType,
}

/// What running an op produced: the output buffer and the kernel that computed it,
/// so the Report can say exactly what ran where.
#[derive(Clone, Debug)]
pub struct Dispatched {
    pub buffer: BufferId,
    /// The kernel's name, e.g. `matmul_f32` or `binary_scalar_mul`.
    pub kernel: String,
    /// The language the kernel is written in: `WGSL` or `Rust`.
    pub kernel_language: &'static str,
    /// The launch's number on a backend that measures its kernels
    /// (`Backend::measured`).
    pub launch: Option<u64>,
}

/// What running a fusion group produced.
#[derive(Clone, Debug)]
pub struct FusedDispatch {
    pub buffers: Vec<BufferId>,
    /// The generated source (WGSL), or a description for the reference.
    pub source: String,
    pub kernel_language: &'static str,
    /// As `Dispatched::launch`.
    pub launch: Option<u64>,
}

/// What one launch took on this machine's device, from its timestamps
/// (wall time measured, not simulated): its start on the device's clock,
/// whose origin means nothing, and its duration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub start_ns: f64,
    pub duration_ns: f64,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum BackendError {
    #[error("{backend} backend does not implement {what}")]
    Unsupported { backend: &'static str, what: String },
    #[error("unknown buffer {0:?}")]
    UnknownBuffer(BufferId),
    #[error("device error: {0}")]
    Device(String),
}

/// Uploads `inputs`, runs `op` and reads the result back, freeing every buffer it
/// made: one op on host data, for differential tests between backends.
pub async fn run_op(
    backend: &mut dyn Backend,
    op: &Op,
    inputs: &[(HostData, Shape)],
    out_shape: &Shape,
    out_dtype: DType,
) -> Result<HostData, BackendError> {
    let mut ids = Vec::with_capacity(inputs.len());
    for (data, _) in inputs {
        ids.push(backend.upload(data)?);
    }
    let operands: Vec<Operand> = ids
        .iter()
        .zip(inputs)
        .map(|(&buffer, (data, shape))| Operand {
            buffer,
            shape,
            dtype: data.dtype(),
        })
        .collect();
    let result = match backend.execute(op, &operands, out_shape, out_dtype) {
        Ok(done) => {
            let values = backend
                .read(done.buffer, out_dtype, out_shape.numel())
                .await;
            ids.push(done.buffer);
            values
        }
        Err(e) => Err(e),
    };
    for id in ids {
        backend.free(id);
    }
    result
}

pub type ReadFuture<'a> = Pin<Box<dyn Future<Output = Result<HostData, BackendError>> + 'a>>;

pub trait Backend {
    fn kind(&self) -> BackendKind;

    /// A human description of the device, e.g. the wgpu adapter's name and driver.
    fn device_description(&self) -> String;

    /// What a person is shown as the backend: `CPU reference`, `WebGPU
    /// (SwiftShader, software)`, `Vulkan (llvmpipe, software)`.
    fn label(&self) -> BackendLabel {
        match self.kind() {
            BackendKind::Reference => BackendLabel {
                text: "CPU reference".into(),
                software: true,
            },
            BackendKind::Wgpu => BackendLabel {
                text: "WebGPU".into(),
                software: false,
            },
        }
    }

    /// Copies host data into a new device buffer.
    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError>;

    /// Runs `op` on `inputs` into a new buffer of `out_shape` elements of
    /// `out_dtype`. Shapes and dtypes are already checked and promoted by the
    /// dispatcher (the inputs of an elementwise op share the output's dtype); a
    /// backend only computes.
    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError>;

    /// Whether `execute` would accept this op, without running it: asked when an
    /// op is deferred in Fused mode, so that fallbacks are decided at once.
    fn check(
        &self,
        _op: &Op,
        _inputs: &[Operand<'_>],
        _out_shape: &Shape,
        _out_dtype: DType,
    ) -> Result<(), BackendError> {
        Ok(())
    }

    /// Whether `execute_fused` is implemented.
    fn supports_fused(&self) -> bool {
        false
    }

    /// Starts compiling the backend's precompiled kernel library in the
    /// background, where it has one (wgpu's `library.rs`).
    fn start_precompiling(&mut self) {}

    /// Compiles up to `max` more of the library's kernels now (the browser,
    /// which has no threads, calls it while idle); returns how many remain.
    fn precompile(&mut self, max: usize) -> usize {
        let _ = max;
        0
    }

    /// Whether the last launch found its kernel compiled by the library
    /// (then forgets it).
    fn take_precompiled(&mut self) -> bool {
        false
    }

    /// Whether fused kernels may hold bools (read, computed by comparisons
    /// and casts, written; `FusedNode::Where`'s condition): the reference's
    /// and wgpu's do.
    fn fuses_masks(&self) -> bool {
        false
    }

    /// Runs a fusion group over `inputs` (in `kernel.inputs` order), making one
    /// new buffer per `kernel.outputs` entry.
    fn execute_fused(
        &mut self,
        _kernel: &FusedKernel,
        _inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        Err(BackendError::Unsupported {
            backend: self.kind().name(),
            what: "fused kernels".into(),
        })
    }

    /// Reads the first `len` elements of a buffer holding `dtype` values.
    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_>;

    /// Releases a buffer whose last tensor was dropped.
    fn free(&mut self, buffer: BufferId);

    /// How many buffers are alive: lets tests prove that dropped tensors free memory.
    fn live_buffers(&self) -> usize;

    /// How many times this backend has given its device's queue work so far
    /// (wgpu: one submission per read, not per kernel); zero for a backend
    /// without a queue.
    fn submissions(&self) -> u64 {
        0
    }

    /// The name under which this backend's driver-level pipeline cache is
    /// persisted, where the driver has one (Vulkan natively); none otherwise.
    /// What launch `launch` (`Dispatched::launch`) took on this machine, once
    /// its timestamps are back; each launch is claimed once. None where the
    /// backend does not measure.
    fn measured(&mut self, _launch: u64) -> Option<Measured> {
        None
    }

    fn driver_cache_key(&self) -> Option<String> {
        None
    }

    /// Starts the driver's pipeline cache from persisted bytes (before any
    /// kernel is compiled). The embedder checks the bytes' integrity first.
    fn load_driver_cache(&mut self, _data: &[u8]) {}

    /// The driver's pipeline cache, to persist after a run.
    fn driver_cache_data(&self) -> Option<Vec<u8>> {
        None
    }

    /// The source this backend generates for a Pallas kernel (WGSL), for the
    /// Report; none for a backend that interprets it.
    fn pallas_source(&self, _kernel: &tpu_ir::PallasKernel) -> Option<String> {
        None
    }

    /// The source of the kernel `execute` ran `op` with (WGSL), for the
    /// Report; none for a backend whose kernels are its own code.
    fn op_source(&self, _op: &Op) -> Option<String> {
        None
    }
}
