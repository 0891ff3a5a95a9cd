//! The Report: everything a run produced, as plain serialisable data. The CLI, the
//! npm package and the page only render it; none of them recomputes anything the
//! runtime knows (totals, FLOPs, a slice's chips and links are here). Its
//! TypeScript declarations are generated from these types (`report/typescript.rs`);
//! the run summary, computed from the rest, is in `report/summary.rs`.

use crate::backend::BackendKind;
use serde::{Deserialize, Serialize};

mod summary;
pub(crate) use summary::summarize;
pub use summary::{FallbackGroup, RunBound, RunSummary, SyncGroup};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Report {
    /// What the program printed.
    pub stdout: String,
    /// Errors that ended the run (at most one today), as Python-style tracebacks.
    pub diagnostics: Vec<Diagnostic>,
    /// Every op dispatched, in program order.
    pub ops: Vec<OpRecord>,
    /// The backend that ran `tpu` tensors.
    pub backend: Option<BackendKind>,
    /// The adapter or CPU that backend ran on.
    pub backend_device: String,
    /// That backend as a person is shown it: `CPU reference`, `WebGPU
    /// (SwiftShader, software)`, `WebGPU (<adapter name>)`.
    #[serde(default)]
    pub backend_label: String,
    /// Whether `tpu` tensors were computed by the CPU (a software adapter or
    /// the reference backend): measured times then say little about a GPU.
    #[serde(default)]
    pub backend_software: bool,
    /// The eager mode at the end of the run (`torch_tpu.set_eager_mode` may
    /// change it while the program runs).
    #[serde(default)]
    pub mode: crate::fusion::EagerMode,
    /// Every kernel launched on the `tpu` backend, in order: one per op in
    /// Debug and Strict, one per fusion group in Fused.
    #[serde(default)]
    pub kernels: Vec<KernelRecord>,
    /// Where the host waited for the device, and why.
    #[serde(default)]
    pub syncs: Vec<SyncRecord>,
    /// What this run did with the compilation cache (its hits and misses,
    /// not those of earlier runs in the same session).
    #[serde(default)]
    pub cache: CacheStats,
    /// Debug mode: the first op whose result held a NaN or an infinity.
    #[serde(default)]
    pub first_nonfinite: Option<NonFinite>,
    /// The simulated TPU the run was costed on.
    #[serde(default)]
    pub device: Option<DeviceSummary>,
    /// What that TPU would do with the run's kernels, lane by lane (simulated).
    #[serde(default)]
    pub timeline: Option<tpu_device::timeline::Timeline>,
    /// Collectives the program simulated (`torch_tpu.simulate_collective`),
    /// with their link-by-link schedules.
    #[serde(default)]
    pub collectives: Vec<CollectiveRecord>,
    /// The run at a glance: how busy the simulated chip was, what bounds the
    /// run and why, host fallbacks and syncs grouped (`report/summary.rs`).
    #[serde(default)]
    pub summary: Option<RunSummary>,
    /// A run of several ranks (`--nproc-per-node`): each rank's chip and
    /// outcome, every collective between them, and the deadlock if the run
    /// ended in one. `ops`, `kernels` and `syncs` then hold every rank's,
    /// each tagged with its rank.
    #[serde(default)]
    pub world: Option<crate::distributed::WorldReport>,
    /// The functions and modules given to `torch.compile`: their compiles,
    /// guards, recompiles, graph breaks, graphs and StableHLO.
    #[serde(default)]
    pub compiled: Vec<crate::compile::CompiledFunction>,
    /// Every `pallas_call` the program made: grid, blocks, VMEM, MXU fit,
    /// the generated source.
    #[serde(default)]
    pub pallas: Vec<crate::PallasRecord>,
}

/// A collective the program simulated, where it happened in the run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CollectiveRecord {
    pub line: Option<u32>,
    /// Kernels launched before it.
    pub after_kernels: usize,
    /// The slice it ran on (`4x4`), its chips and links.
    pub slice: String,
    pub layout: tpu_device::SliceLayout,
    pub simulation: tpu_device::collective::Simulation,
    /// What each of `layout.links` carried, in that order.
    pub traffic: Vec<tpu_device::collective::LinkTraffic>,
}

/// The simulated TPU of a run.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeviceSummary {
    /// The preset's id (`v5e`) and name (`TPU v5e`).
    pub chip: String,
    pub chip_name: String,
    /// The slice's shape (`1`, `4x4`).
    pub slice: String,
    /// Its chips and links, for drawing it.
    #[serde(default)]
    pub layout: tpu_device::SliceLayout,
    /// When the simulated timeline ends, microseconds.
    pub simulated_us: f64,
    /// Kernels that ran on the MXUs (those with a matmul).
    #[serde(default)]
    pub matmul_kernels: usize,
    /// Their floating-point operations, summed.
    #[serde(default)]
    pub matmul_flops: f64,
    /// Their mean MXU utilisation (none without matmuls).
    #[serde(default)]
    pub mean_mxu_utilization: Option<f64>,
    /// Each alignment hint once, with the number of kernels it was given
    /// for, in the order they first appeared.
    #[serde(default)]
    pub hints: Vec<HintCount>,
}

/// An alignment hint and how many kernels it was given for.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct HintCount {
    pub hint: String,
    pub kernels: usize,
}

/// One kernel launch.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct KernelRecord {
    /// The rank that made it (0 in a run of one rank).
    #[serde(default)]
    pub rank: usize,
    pub name: String,
    /// Indices into `Report::ops` of the ops this kernel computed.
    pub ops: Vec<usize>,
    pub backend: BackendKind,
    pub kernel_language: String,
    /// The compilation cache key (see `cache.rs`).
    pub fingerprint: Option<String>,
    /// Whether the cache already held this kernel (from this session or a
    /// persisted one).
    pub cache_hit: Option<bool>,
    /// Whether the hit was an entry persisted by an earlier session.
    #[serde(default)]
    pub cache_persisted: bool,
    /// For the first launch in this session (a miss or a persisted hit):
    /// milliseconds to compile and run it once (wall time on this machine).
    #[serde(default)]
    pub compile_ms: Option<f64>,
    /// For fused kernels: the generated source.
    pub source: Option<String>,
    /// What the kernel does, for the device model.
    #[serde(default)]
    pub work: tpu_device::cost::Work,
    /// What the chosen TPU would take for it (simulated, not measured).
    #[serde(default)]
    pub cost: Option<tpu_device::cost::Cost>,
}

/// A materialisation point: the host waited for a device value.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SyncRecord {
    /// The rank that made it (0 in a run of one rank).
    #[serde(default)]
    pub rank: usize,
    /// `item()`, `print`, `tolist()`, `.cpu()`, `control flow`, `torch_tpu.sync()`, ...
    pub reason: String,
    pub line: Option<u32>,
    /// Kernels of its rank launched when the host had its value (those it waited for).
    #[serde(default)]
    pub after_kernels: usize,
    /// Bytes the host read.
    #[serde(default)]
    pub bytes: usize,
}

/// Hits and misses of the compilation cache (every kernel of every mode). In
/// a Report, the counters (hits, misses, persisted hits, compile time) are
/// the run's own; `entries`, `loaded` and `corrupt` describe the cache.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CacheStats {
    /// Launches of a kernel compiled earlier in this session.
    pub hits: u64,
    /// First launches of a kernel no session had compiled.
    pub misses: u64,
    /// Kernels compiled in this session.
    pub entries: usize,
    /// First launches of a kernel an earlier session persisted.
    #[serde(default)]
    pub persisted_hits: u64,
    /// Entries loaded from the persisted cache.
    #[serde(default)]
    pub loaded: usize,
    /// Persisted entries that could not be read or did not match their
    /// fingerprint (ignored; their kernels are rebuilt).
    #[serde(default)]
    pub corrupt: u64,
    /// Milliseconds spent in first launches (compiling a kernel, then running
    /// it once), measured on this machine; 0 where no clock was given to the
    /// runtime.
    #[serde(default)]
    pub compile_ms: f64,
    /// Of the first launches, those whose kernel the backend's precompiled
    /// library had compiled already (wgpu; `Backend::start_precompiling`).
    #[serde(default)]
    pub precompiled: u64,
}

/// The first non-finite result Debug mode saw.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NonFinite {
    /// The op's index in `Report::ops`.
    pub op: usize,
    pub name: String,
    pub line: Option<u32>,
    /// `nan` or `inf`.
    pub value: String,
    /// What the page shows: `aten::div on line 5 produced nan: the first
    /// non-finite value in this run (Debug mode checks every op's result).`
    #[serde(default)]
    pub message: String,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

/// A 1-based line and column range in the user's source.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SourceSpan {
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Diagnostic {
    /// The Python exception type, e.g. `RuntimeError` or `SyntaxError`.
    pub kind: String,
    pub message: String,
    /// Where the error was raised (the innermost frame).
    pub span: Option<SourceSpan>,
    /// The full text as CPython would print it, ending with `Kind: message`.
    pub traceback: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OpRecord {
    /// The rank that made it (0 in a run of one rank).
    #[serde(default)]
    pub rank: usize,
    /// The aten-style name, e.g. `aten::mm`.
    pub name: String,
    /// The op with its constants, as `tpu-ir` defines it.
    pub op: tpu_ir::Op,
    pub input_shapes: Vec<Vec<usize>>,
    pub output_shape: Vec<usize>,
    /// `tpu:0` or `cpu`.
    pub device: String,
    pub backend: BackendKind,
    pub kernel: String,
    /// `WGSL` for shaders, `Rust` for the reference loops.
    pub kernel_language: String,
    /// The source line that dispatched the op, when known.
    pub line: Option<u32>,
    /// Why a `tpu` op ran on the host reference instead of the accelerator
    /// backend (no kernel for it yet), if it did.
    #[serde(default)]
    pub fallback: Option<String>,
    /// For a convolution's matmul: the convolution (see `Runtime::set_conv`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub conv: Option<tpu_device::cost::Conv>,
}

#[cfg(test)]
mod typescript;
