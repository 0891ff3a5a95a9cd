//! The dispatcher. Every tensor op from the language comes through here: shapes and
//! devices are checked (with PyTorch's error wording), the op goes to the backend of
//! the tensor's device, and an `OpRecord` is logged for the Report. `cpu` tensors
//! always run on the reference backend; `tpu` tensors run on the backend chosen at
//! start-up (wgpu when an adapter exists, the reference otherwise).
//!
//! This file keeps the `Runtime` itself, its construction, session state and
//! the dispatch core; the ops live beside it by family: `error.rs` (the error
//! type), `memory.rs` (limits, live-byte bookkeeping, releases),
//! `elementwise.rs`, `creation.rs` (fills, random tensors), `read.rs` (reads,
//! `item`, `repr`, device copies), `matmul.rs` and `device.rs` (the simulated
//! TPU's side).

use crate::backend::{Backend, BackendKind, BufferId};
use crate::format::PrintOptions;
use crate::fusion::EagerMode;
use crate::reference::ReferenceBackend;
use crate::report::{CacheStats, NonFinite, OpRecord, SyncRecord};
use crate::tensor::{Device, Home, ReleaseQueue, Tensor};
use tpu_ir::{DType, Op, Shape};

mod creation;
pub(crate) mod device;
mod distributed;
mod elementwise;
mod error;
mod matmul;
mod memory;
mod pallas;
mod read;
use device::default_device;
pub(crate) use device::device_summary;
pub use distributed::{CommItem, WorldMaker, WorldSeat};
pub use error::{RuntimeError, c_type_name, scalar_type_name};
pub(crate) use matmul::transposed_in_place;
pub(crate) use memory::check_size;
pub use pallas::{MxuFit, PallasOperand, PallasRecord};

/// A broadcast view (`expand`: stride 0 where a size-1 dimension was
/// repeated) of a whole dense storage, as that storage with size 1 in those
/// dimensions: what a broadcasting kernel reads without a copy.
fn unexpanded(t: &Tensor) -> Option<Tensor> {
    if t.is_dense() {
        return None;
    }
    let layout = t.layout();
    let dims: Vec<usize> = layout
        .shape
        .dims()
        .iter()
        .zip(&layout.strides)
        .map(|(&d, &s)| if s == 0 { 1 } else { d })
        .collect();
    let base = Shape::new(dims);
    let expected = base.strides();
    let fits = layout.offset == 0
        && layout.storage.len() == base.numel()
        && base
            .dims()
            .iter()
            .zip(layout.strides.iter().zip(&expected))
            .all(|(&d, (&s, &e))| d == 1 || s == e);
    fits.then(|| {
        Tensor::from_layout(crate::tensor::Layout {
            strides: expected,
            shape: base,
            ..layout
        })
    })
}

pub struct Runtime {
    pub(crate) host: ReferenceBackend,
    pub(crate) tpu: crate::fusion::FusingBackend,
    pub(crate) release: ReleaseQueue,
    pub(crate) ops: Vec<OpRecord>,
    pub(crate) mode: EagerMode,
    /// The modes this run's kernels were launched in (`Report::modes`).
    mode_spans: Vec<crate::report::ModeSpan>,
    pub(crate) syncs: Vec<SyncRecord>,
    /// The backend's queue submissions when this run started.
    submissions_at_start: u64,
    /// Why the next read happens, set by the caller (`item()`, `print`, ...).
    sync_reason: Option<&'static str>,
    pub(crate) first_nonfinite: Option<NonFinite>,
    /// Bytes held by each live buffer, and their sum, for `MAX_LIVE_BYTES`.
    live: std::collections::HashMap<(Home, BufferId), usize>,
    live_bytes: usize,
    pub(crate) line: Option<u32>,
    /// Fuel the ops since the last `take_work_fuel` cost (`work::op_fuel`).
    pub(crate) work_fuel: u64,
    /// The convolution the next matmul computes (`set_conv`), noted on its
    /// op record so that the cost model runs it as one.
    pub(crate) conv: Option<tpu_device::cost::Conv>,
    print_options: PrintOptions,
    /// The simulated TPU: its chip and slice.
    device: (tpu_device::Chip, tpu_device::Slice),
    /// The one the embedder chose, which every run starts with.
    chosen_device: (tpu_device::Chip, tpu_device::Slice),
    /// Collectives simulated in this run.
    collectives: Vec<crate::report::CollectiveRecord>,
    grad_enabled: bool,
    /// The default generator (`torch.manual_seed`), shared by `cpu` and `tpu`
    /// tensors so that seeded programs draw PyTorch's CPU stream on either device.
    pub generator: crate::rng::Generator,
    /// The most bytes this runtime's live tensors may hold: `MAX_LIVE_BYTES`,
    /// or its share of it when it is one rank of several.
    pub(crate) live_limit: usize,
    /// This runtime's rank in a multi-rank run, its started communications
    /// and where they sat in its stream (`runtime/distributed.rs`).
    world: Option<WorldSeat>,
    /// Makes the runtimes of a world of ranks this runtime's program starts
    /// (`torch.multiprocessing.spawn`), where the embedder gave it how.
    world_maker: Option<distributed::WorldMaker>,
    works: Vec<distributed::Work>,
    comm_items: Vec<CommItem>,
    /// The meshes and DTensors the prelude noted at the end of the run.
    pub(crate) sharding: crate::distributed::ShardingNotes,
    /// For each leaf (by identity), the op count when backward last
    /// accumulated its gradient.
    pub(crate) grad_ready: std::collections::HashMap<usize, usize>,
    /// `torch.compile`'s functions, and the capture in progress.
    pub(crate) compiled: crate::compile::CompileState,
    /// The run's `pallas_call`s.
    pub(crate) pallas: Vec<pallas::PallasRecord>,
}

impl Runtime {
    pub fn new(tpu: Box<dyn Backend>) -> Self {
        Runtime {
            host: ReferenceBackend::new(),
            tpu: crate::fusion::FusingBackend::new(tpu),
            mode: EagerMode::Strict,
            mode_spans: Vec::new(),
            syncs: Vec::new(),
            submissions_at_start: 0,
            sync_reason: None,
            first_nonfinite: None,
            release: ReleaseQueue::default(),
            ops: Vec::new(),
            live: Default::default(),
            live_bytes: 0,
            line: None,
            work_fuel: 0,
            conv: None,
            print_options: PrintOptions::default(),
            device: default_device(),
            chosen_device: default_device(),
            collectives: Vec::new(),
            grad_enabled: true,
            generator: crate::rng::Generator::default(),
            live_limit: memory::MAX_LIVE_BYTES,
            world: None,
            world_maker: None,
            works: Vec::new(),
            comm_items: Vec::new(),
            sharding: Default::default(),
            grad_ready: Default::default(),
            compiled: Default::default(),
            pallas: Vec::new(),
        }
    }

    pub fn tpu_backend_kind(&self) -> BackendKind {
        self.tpu.kind()
    }

    pub fn tpu_device_description(&self) -> String {
        self.tpu.device_description()
    }

    /// The `tpu` backend as a person is shown it (`Backend::label`).
    pub fn tpu_backend_label(&self) -> crate::BackendLabel {
        self.tpu.label()
    }

    /// `torch.set_grad_enabled`: returns the previous mode.
    pub fn set_grad_enabled(&mut self, enabled: bool) -> bool {
        std::mem::replace(&mut self.grad_enabled, enabled)
    }

    pub fn grad_enabled(&self) -> bool {
        self.grad_enabled
    }

    /// Returns the state a fresh Python process starts with: the default seed,
    /// gradients enabled. Called at the start of every run.
    pub fn reset_session_state(&mut self) {
        self.generator = crate::rng::Generator::default();
        self.device = self.chosen_device.clone();
        self.collectives.clear();
        self.grad_enabled = true;
        self.syncs.clear();
        self.submissions_at_start = self.tpu.submissions();
        self.mode_spans = vec![crate::report::ModeSpan {
            mode: self.mode,
            first_kernel: 0,
        }];
        self.first_nonfinite = None;
        self.work_fuel = 0;
        self.print_options = PrintOptions::default();
        self.works.clear();
        self.comm_items.clear();
        self.sharding = Default::default();
        self.grad_ready.clear();
        let export = self.compiled.export;
        self.compiled = crate::compile::CompileState {
            export,
            ..Default::default()
        };
        self.tpu.cache.begin_run();
    }

    /// `torch.set_printoptions`'s state, which lasts for one run.
    pub fn print_options_mut(&mut self) -> &mut PrintOptions {
        &mut self.print_options
    }

    /// The source line that subsequent ops are attributed to in the Report.
    pub fn set_line(&mut self, line: Option<u32>) {
        self.line = line;
    }

    /// The source line ops are attributed to now.
    pub fn line(&self) -> Option<u32> {
        self.line
    }

    /// The fuel the ops dispatched since the last call cost, by their size
    /// (`work::op_fuel`): the interpreter charges it to the run's budget.
    pub fn take_work_fuel(&mut self) -> u64 {
        std::mem::take(&mut self.work_fuel)
    }

    pub fn take_ops(&mut self) -> Vec<OpRecord> {
        std::mem::take(&mut self.ops)
    }

    /// Fills the Report's execution fields at the end of a run: ops, kernels,
    /// syncs, cache counters, mode, Debug findings.
    pub fn finish_report(&mut self, report: &mut crate::Report) -> Result<(), RuntimeError> {
        self.tpu.flush()?;
        self.tpu.claim_measured();
        report.ops = std::mem::take(&mut self.ops);
        report.kernels = std::mem::take(&mut self.tpu.kernels);
        self.tpu.sourced.clear();
        report.syncs = std::mem::take(&mut self.syncs);
        report.submissions = self.tpu.submissions() - self.submissions_at_start;
        report.cache = self.tpu.cache.run_stats();
        report.mode = self.mode;
        report.modes = std::mem::take(&mut self.mode_spans);
        if report.modes.is_empty() {
            report.modes.push(crate::report::ModeSpan {
                mode: self.mode,
                first_kernel: 0,
            });
        }
        report.first_nonfinite = self.first_nonfinite.take();
        report.collectives = std::mem::take(&mut self.collectives);
        report.compiled = self.take_compiled();
        report.pallas = self.take_pallas(&report.kernels);
        self.simulate(report);
        Self::cost_graphs(report);
        Ok(())
    }

    pub fn mode(&self) -> EagerMode {
        self.mode
    }

    /// `torch_tpu.set_eager_mode`: leaving Fused runs what is pending first.
    pub fn set_mode(&mut self, mode: EagerMode) -> Result<(), RuntimeError> {
        self.tpu.set_deferring(mode == EagerMode::Fused)?;
        self.mode = mode;
        let first_kernel = self.tpu.kernels.len();
        match self.mode_spans.last_mut() {
            // No kernel was launched in the mode it replaces.
            Some(last) if last.first_kernel == first_kernel => {
                last.mode = mode;
                let n = self.mode_spans.len();
                if n >= 2 && self.mode_spans[n - 2].mode == mode {
                    self.mode_spans.pop();
                }
            }
            Some(last) if last.mode == mode => {}
            _ => self
                .mode_spans
                .push(crate::report::ModeSpan { mode, first_kernel }),
        }
        Ok(())
    }

    /// Gives the runtime a clock (milliseconds) so it can time compilations.
    /// The runtime never reads time by itself: wasm has no `Instant`, and the
    /// embedder knows the right clock (`std::time` natively, `Date.now()` in a
    /// browser).
    pub fn set_clock(&mut self, clock: Box<dyn Fn() -> f64>) {
        self.tpu.clock = Some(clock);
    }

    /// The compilation cache's counters for this run (`torch_tpu.cache_stats()`).
    pub fn cache_stats(&self) -> CacheStats {
        self.tpu.cache.run_stats()
    }

    /// Loads the compilation cache entries persisted by earlier sessions;
    /// each `Err` names one that could not be read (it is counted, and its
    /// kernel rebuilt).
    pub fn load_cache(&mut self, entries: Vec<Result<crate::CacheEntry, String>>) {
        self.tpu.cache.load(entries);
    }

    /// The compilation cache entries made since the last call, for the
    /// embedder to persist.
    pub fn take_cache_entries(&mut self) -> Vec<crate::CacheEntry> {
        self.tpu.cache.take_fresh()
    }

    /// The `tpu` backend's driver-level pipeline cache: the name it persists
    /// under, where the driver has one (see `Backend::driver_cache_key`).
    pub fn driver_cache_key(&self) -> Option<String> {
        self.tpu.driver_cache_key()
    }

    /// Starts the driver's pipeline cache from persisted bytes (before a run;
    /// empty bytes start an empty cache).
    pub fn load_driver_cache(&mut self, data: &[u8]) {
        self.tpu.load_driver_cache(data)
    }

    /// Starts compiling the backend's precompiled kernel library in the
    /// background (`Backend::start_precompiling`).
    pub fn start_precompiling(&mut self) {
        self.tpu.start_precompiling()
    }

    /// Compiles up to `max` more library kernels; returns how many remain.
    pub fn precompile(&mut self, max: usize) -> usize {
        self.tpu.precompile(max)
    }

    /// The driver's pipeline cache, to persist after a run.
    pub fn driver_cache_data(&self) -> Option<Vec<u8>> {
        self.tpu.driver_cache_data()
    }

    /// `torch_tpu.sync()`: runs everything pending now.
    pub fn sync(&mut self) -> Result<(), RuntimeError> {
        self.tpu.flush()?;
        self.syncs.push(SyncRecord {
            rank: 0,
            reason: "torch_tpu.sync()".into(),
            line: self.line,
            after_kernels: self.tpu.kernels.len(),
            bytes: 0,
        });
        Ok(())
    }

    pub(crate) fn backend(&mut self, home: Home) -> &mut dyn Backend {
        match home {
            Home::Host => &mut self.host,
            Home::Accelerator => &mut self.tpu,
        }
    }

    /// Runs `op` on dense copies of any strided views among `inputs`. Ops
    /// that broadcast their operands take an expanded view as the smaller
    /// tensor it expands, so `expand` never costs a copy there.
    pub(crate) async fn dispatch(
        &mut self,
        op: Op,
        inputs: &[&Tensor],
        out_shape: Shape,
        out_dtype: DType,
        device: Device,
    ) -> Result<Tensor, RuntimeError> {
        let broadcasts = matches!(op, Op::Binary { .. } | Op::Compare { .. } | Op::Where);
        let mut dense = Vec::with_capacity(inputs.len());
        for t in inputs {
            let unexpanded = if broadcasts { unexpanded(t) } else { None };
            match unexpanded {
                Some(u) => dense.push(u),
                None => dense.push(self.dense(t).await?),
            }
        }
        let refs: Vec<&Tensor> = dense.iter().collect();
        self.dispatch_dense(op, &refs, out_shape, out_dtype, device)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pollster::block_on;
    use tpu_ir::{BinaryOp, ScalarKind};

    fn runtime() -> Runtime {
        Runtime::new(Box::new(ReferenceBackend::new()))
    }

    fn ones(rt: &mut Runtime, dims: &[usize], device: Device) -> Tensor {
        block_on(rt.full(Shape::new(dims), 1.0, DType::Float32, device)).unwrap()
    }

    #[test]
    fn dropped_tensors_free_their_buffers() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2, 2], Device::Tpu(0));
        let b =
            block_on(rt.binary_scalar(BinaryOp::Mul, &a, 2.0, ScalarKind::Float, false)).unwrap();
        assert_eq!(rt.live_tpu_buffers(), 2);
        drop(a);
        drop(b);
        assert_eq!(rt.live_tpu_buffers(), 0);
    }

    #[test]
    fn matmul_shape_mismatch_uses_pytorch_wording() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2, 3], Device::Tpu(0));
        let b = ones(&mut rt, &[4, 2], Device::Tpu(0));
        let err = block_on(rt.matmul(&a, &b)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)"
        );
    }

    #[test]
    fn huge_tensors_are_refused_before_allocation() {
        let mut rt = runtime();
        let huge = Shape::new([1 << 40, 1 << 40]);
        let err = block_on(rt.full(huge, 0.0, DType::Float32, Device::Tpu(0))).unwrap_err();
        assert!(matches!(err, RuntimeError::OutOfMemory { .. }), "{err}");
        assert!(err.to_string().starts_with("out of memory"), "{err}");
    }

    #[test]
    fn mixing_devices_is_an_error() {
        let mut rt = runtime();
        let a = ones(&mut rt, &[2], Device::Tpu(0));
        let b = ones(&mut rt, &[2], Device::Cpu);
        let err = block_on(rt.binary(BinaryOp::Add, &a, &b)).unwrap_err();
        assert!(err.to_string().contains("tpu:0 and cpu"), "{err}");
    }

    #[test]
    fn cpu_copy_prints_without_a_device_suffix() {
        let mut rt = runtime();
        let a = block_on(rt.full(Shape::new([2]), 1.5, DType::Float32, Device::Tpu(0))).unwrap();
        let on_tpu = block_on(rt.repr(&a)).unwrap();
        let c = block_on(rt.to_device(&a, Device::Cpu)).unwrap();
        let on_cpu = block_on(rt.repr(&c)).unwrap();
        assert_eq!(on_tpu, "tensor([1.5000, 1.5000], device='tpu:0')");
        assert_eq!(on_cpu, "tensor([1.5000, 1.5000])");
    }
}
