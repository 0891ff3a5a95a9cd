//! The records a Report is made of: one per op, kernel launch, host sync and
//! simulated collective, the compilation cache's counters, the device summary
//! and the diagnostics. They are plain serialisable data, and this module is a
//! leaf (it imports only `BackendKind`, `tpu_ir`, `tpu_device`, serde and std)
//! so that the parts of the runtime that fill them in (`fusion`, `cache`, the
//! dispatcher) and the `Report` that gathers them (`report.rs`) all depend on
//! it and never on each other. `report` re-exports every type, so
//! `tpu_runtime::report::KernelRecord` and `tpu_runtime::KernelRecord` keep
//! naming them.

use crate::backend::BackendKind;
use serde::{Deserialize, Serialize};

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

/// A stretch of a run's kernels launched in one eager mode.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModeSpan {
    pub mode: crate::fusion::EagerMode,
    /// The index of its first kernel in the Report's `kernels`.
    pub first_kernel: usize,
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
    /// What it took on this machine's GPU (measured, not simulated), where
    /// the backend measures kernels and its times were back when the Report
    /// was made.
    #[serde(default)]
    pub measured: Option<MeasuredTime>,
    /// The backend's number for the launch, to claim its measured time.
    #[serde(skip)]
    #[cfg_attr(test, ts(skip))]
    pub launch: Option<u64>,
}

/// A kernel's time on this machine's GPU, from timestamps around it: its
/// start on the device's clock (only differences between starts mean
/// anything) and its duration, in microseconds.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MeasuredTime {
    pub start_us: f64,
    pub duration_us: f64,
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
