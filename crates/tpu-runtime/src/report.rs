//! The Report: everything a run produced, as plain serialisable data. The CLI, the
//! npm package and the page only render it; none of them recomputes anything the
//! runtime knows (totals, FLOPs, a slice's chips and links are here). Its
//! TypeScript declarations are generated from these types (`report/typescript.rs`);
//! the run summary, computed from the rest, is in `report/summary.rs`. The
//! records it gathers live in the leaf module `records.rs`, which the parts of
//! the runtime that fill them in import instead of this one; they are
//! re-exported here under their old paths.

use crate::backend::BackendKind;
use serde::{Deserialize, Serialize};

pub use crate::records::{
    CacheStats, CollectiveRecord, DeviceSummary, Diagnostic, HintCount, KernelRecord, MeasuredTime,
    ModeSpan, NonFinite, OpRecord, SourceSpan, SyncRecord,
};

mod summary;
pub(crate) use summary::summarize;
pub use summary::{FallbackGroup, RunBound, RunSummary, SyncGroup};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Report {
    /// What the program printed.
    pub stdout: String,
    /// What it wrote to stderr (`logging`'s default handler, warnings,
    /// `print(file=sys.stderr)`), less the traceback of the error that ended
    /// it, which is its diagnostic.
    #[serde(default)]
    pub stderr: String,
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
    /// Float32 matrix products the reference backend shared with helper
    /// threads (in the browser: Web Workers, each computing a share of the
    /// product's rows or batch entries); 0 natively, where the reference
    /// has threads of its own, and on WebGPU.
    #[serde(default)]
    pub helped_products: usize,
    /// The eager mode at the end of the run (`torch_tpu.set_eager_mode` may
    /// change it while the program runs).
    #[serde(default)]
    pub mode: crate::fusion::EagerMode,
    /// The modes the run's kernels were launched in, in order, each from the
    /// first kernel launched in it: one span unless the program called
    /// `torch_tpu.set_eager_mode`. Empty for a world of ranks.
    #[serde(default)]
    pub modes: Vec<ModeSpan>,
    /// Every kernel launched on the `tpu` backend, in order: one per op in
    /// Debug and Strict, one per fusion group in Fused.
    #[serde(default)]
    pub kernels: Vec<KernelRecord>,
    /// Where the host waited for the device, and why.
    #[serde(default)]
    pub syncs: Vec<SyncRecord>,
    /// How many times the run gave the device's queue work: on wgpu one per
    /// read (a batch of every kernel recorded since the last), plus one
    /// whenever the kernels' parameter arena fills; none on the reference
    /// backend, which has no queue. For a world of ranks, the world's.
    #[serde(default)]
    pub submissions: u64,
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

impl Report {
    pub fn ok(&self) -> bool {
        self.diagnostics.is_empty()
    }
}

#[cfg(test)]
mod typescript;
