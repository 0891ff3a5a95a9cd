//! The eager modes' execution layer, between the dispatcher and the `tpu`
//! backend. In Debug and Strict it passes each op straight through (one kernel
//! per op). In Fused it defers ops: each returns a buffer id at once, and the op
//! joins a pending graph; at a materialisation point (a read of a pending
//! value) the ops nothing needs are dropped and the graph is cut into fusion
//! groups, each group runs as one kernel, and only values still
//! referenced afterwards get buffers. Every launch is logged as a
//! `KernelRecord`; fused kernels are keyed by their fingerprint in a
//! compilation cache shared by all modes.

use crate::backend::{Backend, BackendError, BufferId, Dispatched, Operand};
use crate::cache::{CacheEntry, CompilationCache, Lookup};
use crate::records::KernelRecord;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use tpu_ir::{DType, Op, Shape};

mod constants;
mod dispatch;
mod plan;
mod views;
use plan::{Group, MAX_FUSED_BUFFERS, Role};

/// The most ops a pending graph holds before it runs without a read. A
/// program that never reads (a runaway `while True: x = x + 1`) would
/// otherwise grow one graph, and one generated kernel, without bound: a chain
/// of 2,000 additions took 11 s to compile on lavapipe, and 40,000 did not
/// finish in ten minutes. Graphs cut here have the same structure each time,
/// so later ones hit the compilation cache.
pub(crate) const MAX_PENDING_OPS: usize = 1024;

/// TorchTPU's three eager modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum EagerMode {
    /// Each op runs at once and the host waits; non-finite results are named.
    Debug,
    /// One kernel per op, queued; the host runs ahead until it reads.
    #[default]
    Strict,
    /// Ops are deferred and fused into larger kernels at materialisation points.
    Fused,
}

impl EagerMode {
    pub fn name(self) -> &'static str {
        match self {
            EagerMode::Debug => "debug",
            EagerMode::Strict => "strict",
            EagerMode::Fused => "fused",
        }
    }
}

impl std::str::FromStr for EagerMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "debug" => Ok(EagerMode::Debug),
            "strict" => Ok(EagerMode::Strict),
            "fused" => Ok(EagerMode::Fused),
            other => Err(format!(
                "unknown eager mode '{other}': expected \"debug\", \"strict\" or \"fused\""
            )),
        }
    }
}

enum Slot {
    Real(BufferId),
    /// The output of a pending op; `freed` once no tensor holds it.
    Pending {
        freed: bool,
    },
}

struct PendingInput {
    id: u64,
    shape: Shape,
    dtype: DType,
    /// A matmul operand read in place from a strided view of buffer `id`
    /// (`views.rs`): where its elements lie.
    view: Option<tpu_ir::MatrixLayout>,
    /// The operand is a `Fill` inlined into the reader (`constants.rs`): a
    /// constant of the kernel, no buffer. Its value, and the fill's index in
    /// the op stream (the first kernel that reads it lists it).
    constant: Option<(f64, usize)>,
}

struct Pending {
    op: Op,
    inputs: Vec<PendingInput>,
    out_shape: Shape,
    out_dtype: DType,
    out: u64,
    /// The op's index in the Report's op stream.
    op_index: usize,
}

/// A launch as the compilation cache and the Report see it.
struct Launch {
    name: String,
    language: &'static str,
    fingerprint: String,
    code_key: String,
    lookup: Lookup,
    source: Option<String>,
    work: tpu_device::cost::Work,
    /// The backend's number for it (`Dispatched::launch`).
    launch: Option<u64>,
}

/// A pending op defined with a value that already exists: a compiled graph
/// run padded makes each value of its exact-size ops that a tensor holds
/// as a slice of the padded value (`FusingBackend::redefine`).
pub(crate) struct Definition {
    pub out: BufferId,
    pub op: Op,
    pub input: (BufferId, Shape, DType),
    pub shape: Shape,
    pub dtype: DType,
    pub op_index: usize,
}

pub struct FusingBackend {
    inner: Box<dyn Backend>,
    deferring: bool,
    next_id: u64,
    slots: HashMap<u64, Slot>,
    pending: Vec<Pending>,
    /// Real buffers released while pending ops still read them.
    doomed: Vec<u64>,
    /// Kernels launched since the runtime last took them.
    pub(crate) kernels: Vec<KernelRecord>,
    /// The compilation cache shared by all modes.
    pub(crate) cache: CompilationCache,
    /// The op-stream index the next `execute` belongs to.
    pub(crate) op_index: usize,
    /// Milliseconds from some fixed origin, for compile times (the host's
    /// clock natively, `Date.now()` in a browser); none, none measured.
    pub(crate) clock: Option<Box<dyn Fn() -> f64>>,
    /// The op kernels whose source a record of this run already carries:
    /// the Report holds each kernel's source once, not once per launch.
    pub(crate) sourced: std::collections::HashSet<String>,
}

impl FusingBackend {
    pub fn new(inner: Box<dyn Backend>) -> Self {
        FusingBackend {
            inner,
            deferring: false,
            next_id: 0,
            slots: HashMap::new(),
            pending: Vec::new(),
            doomed: Vec::new(),
            kernels: Vec::new(),
            cache: CompilationCache::default(),
            op_index: 0,
            sourced: Default::default(),
            clock: None,
        }
    }

    /// Starts or stops deferring (Fused mode); stopping runs what is pending.
    pub(crate) fn set_deferring(&mut self, on: bool) -> Result<(), BackendError> {
        if !on {
            self.flush()?;
        }
        self.deferring = on;
        Ok(())
    }

    /// Ops waiting to run.
    pub(crate) fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// Whether a tensor still holds `buffer`, a pending op's value.
    pub(crate) fn holds(&self, buffer: BufferId) -> bool {
        matches!(
            self.slots.get(&buffer.0),
            Some(Slot::Pending { freed: false })
        )
    }

    /// Drops the `count` pending ops from `first` on, and makes each value
    /// of theirs in `defs` by its definition instead (after every other
    /// pending op). Their other values are gone: nothing may read them.
    pub(crate) fn redefine(&mut self, first: usize, count: usize, defs: Vec<Definition>) {
        let dropped: Vec<Pending> = self.pending.drain(first..first + count).collect();
        for p in dropped {
            if !defs.iter().any(|d| d.out.0 == p.out) {
                self.slots.remove(&p.out);
            }
        }
        for d in defs {
            self.pending.push(Pending {
                op: d.op,
                inputs: vec![PendingInput {
                    id: d.input.0.0,
                    shape: d.input.1,
                    dtype: d.input.2,
                    view: None,
                    constant: None,
                }],
                out_shape: d.shape,
                out_dtype: d.dtype,
                out: d.out.0,
                op_index: d.op_index,
            });
        }
    }

    fn fresh(&mut self, slot: Slot) -> BufferId {
        self.next_id += 1;
        self.slots.insert(self.next_id, slot);
        BufferId(self.next_id)
    }

    fn real(&self, id: BufferId) -> Result<BufferId, BackendError> {
        match self.slots.get(&id.0) {
            Some(Slot::Real(b)) => Ok(*b),
            Some(Slot::Pending { .. }) => Err(BackendError::Device(
                "internal: a pending value was used before the graph ran".into(),
            )),
            None => Err(BackendError::UnknownBuffer(id)),
        }
    }

    /// The clock's reading, if there is a clock and `wanted`.
    fn now(&self, wanted: bool) -> Option<f64> {
        wanted.then(|| self.clock.as_ref().map(|c| c())).flatten()
    }

    /// Logs a launch and, for a miss, makes its cache entry.
    fn record(&mut self, launch: Launch, ops: Vec<usize>, started: Option<f64>) {
        let compile_ms = match (started, self.clock.as_ref()) {
            (Some(t0), Some(clock)) => Some(clock() - t0),
            _ => None,
        };
        let backend = self.inner.kind();
        if let (Some(ms), true) = (compile_ms, launch.lookup != Lookup::Hit) {
            self.cache.stats.compile_ms += ms;
        }
        if self.inner.take_precompiled() && launch.lookup != Lookup::Hit {
            self.cache.stats.precompiled += 1;
        }
        if launch.lookup == Lookup::Miss {
            self.cache.made(CacheEntry {
                fingerprint: launch.fingerprint.clone(),
                code_key: launch.code_key,
                backend: backend.name().to_string(),
                name: launch.name.clone(),
                source: launch.source.clone(),
                compile_ms,
            });
        }
        self.kernels.push(KernelRecord {
            rank: 0,
            name: launch.name,
            ops,
            backend,
            kernel_language: launch.language.to_string(),
            fingerprint: Some(launch.fingerprint),
            cache_hit: Some(launch.lookup != Lookup::Miss),
            cache_persisted: launch.lookup == Lookup::Persisted,
            source: launch.source,
            compile_ms,
            work: launch.work,
            cost: None,
            measured: None,
            launch: launch.launch,
        });
    }

    /// Fills in what the launches recorded so far took on this machine,
    /// where the backend measured them.
    pub(crate) fn claim_measured(&mut self) {
        for k in &mut self.kernels {
            if let (Some(launch), None) = (k.launch, k.measured) {
                k.measured = self
                    .inner
                    .measured(launch)
                    .map(|m| crate::report::MeasuredTime {
                        start_us: m.start_ns / 1000.0,
                        duration_us: m.duration_ns / 1000.0,
                    });
            }
        }
    }

    /// Runs one op as a kernel of its own, through the compilation cache
    /// (its code depends on the op alone: the kernel name is its key).
    fn launch_op(
        &mut self,
        op: &Op,
        operands: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
        op_index: usize,
    ) -> Result<Dispatched, BackendError> {
        let code_key = format!("op:{}", op.kernel_name());
        let (fingerprint, lookup) = self.cache.launch(self.inner.kind(), &code_key);
        let started = self.now(lookup != Lookup::Hit);
        let done = self.inner.execute(op, operands, out_shape, out_dtype)?;
        // The first launch of each kernel in a run carries its source.
        // (`contains` first: no allocation on the launches after it.)
        let source = match self.sourced.contains(&done.kernel) {
            true => None,
            false => {
                self.sourced.insert(done.kernel.clone());
                self.inner.op_source(op)
            }
        };
        let launch = Launch {
            name: done.kernel.clone(),
            language: done.kernel_language,
            fingerprint,
            code_key,
            lookup,
            source,
            work: crate::work::op_work(op, operands, out_shape, out_dtype),
            launch: done.launch,
        };
        self.record(launch, vec![op_index], started);
        Ok(done)
    }

    /// Runs every pending op: cuts the pending graph into groups, launches one
    /// kernel per group, and gives buffers to the values still referenced.
    pub(crate) fn flush(&mut self) -> Result<(), BackendError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut pending = std::mem::take(&mut self.pending);
        // Ops whose values nothing holds or reads are dead: never launched.
        let mut wanted: HashSet<u64> = HashSet::new();
        let mut live = vec![false; pending.len()];
        for (i, p) in pending.iter().enumerate().rev() {
            if wanted.contains(&p.out)
                || matches!(self.slots.get(&p.out), Some(Slot::Pending { freed: false }))
            {
                live[i] = true;
                wanted.extend(p.inputs.iter().map(|x| x.id));
            }
        }
        let mut keep = live.iter();
        pending.retain(|p| {
            let alive = *keep.next().unwrap_or(&true);
            if !alive {
                self.slots.remove(&p.out);
            }
            alive
        });
        if pending.is_empty() {
            self.doomed_release();
            return Ok(());
        }
        let fuses = plan::Caps {
            fuses: self.inner.supports_fused(),
            masks: self.inner.fuses_masks(),
        };
        if fuses.fuses {
            let held =
                |id: u64| matches!(self.slots.get(&id), Some(Slot::Pending { freed: false }));
            let mut dropped = views::read_in_place(&mut pending, &held);
            dropped.extend(constants::inline_fills(&mut pending, fuses, &held));
            for id in dropped {
                self.slots.remove(&id);
            }
        }
        // Which pending values are read by which later pending ops.
        let mut consumers: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, p) in pending.iter().enumerate() {
            for input in p.inputs.iter().filter(|x| x.constant.is_none()) {
                consumers.entry(input.id).or_default().push(i);
            }
        }
        let alive = |id: u64, slots: &HashMap<u64, Slot>| {
            matches!(slots.get(&id), Some(Slot::Pending { freed: false }))
        };
        // A first guess of which values a group must write: those a tensor holds,
        // and those read by an op that cannot join a group of the same shape
        // (an elementwise op over it, or a reduction of it).
        let likely_output = |i: usize| {
            let p = &pending[i];
            let joins = |j: usize| match plan::role(&pending[j], fuses) {
                Role::Elementwise => pending[j].out_shape == p.out_shape,
                Role::Reduce { .. } => pending[j].inputs[0].shape == p.out_shape,
                Role::MatMul | Role::Alone => false,
            };
            alive(p.out, &self.slots)
                || consumers
                    .get(&p.out)
                    .is_some_and(|c| c.iter().any(|&j| !joins(j)))
        };
        let all: Vec<usize> = (0..pending.len()).collect();
        let groups = plan::plan(&pending, &all, fuses, &likely_output);
        // Real buffers made during this flush for values no tensor holds.
        let mut temporaries = Vec::new();
        // The inlined fills a kernel's record lists already.
        let mut inlined: HashSet<usize> = HashSet::new();
        let mut queue: std::collections::VecDeque<Group> = groups.into();
        while let Some(group) = queue.pop_front() {
            if let [mm] = group.members[..] {
                // A matmul takes the group that reads its product as its
                // epilogue, when the two fit in one kernel; it then runs in
                // that group's place (the groups between do not read it).
                if let Some(k) = plan::epilogue_for(&pending, mm, queue.iter(), fuses) {
                    let mut merged = queue[k].clone();
                    merged.members.insert(0, mm);
                    let inside: HashSet<usize> = merged.members.iter().copied().collect();
                    let (_, external, outputs) = plan::build_kernel(&pending, &merged, &|i| {
                        let id = pending[i].out;
                        alive(id, &self.slots)
                            || consumers
                                .get(&id)
                                .is_some_and(|c| c.iter().any(|j| !inside.contains(j)))
                    });
                    if external.len() + outputs.len() <= MAX_FUSED_BUFFERS {
                        queue[k] = merged;
                        continue;
                    }
                }
            }
            let members: HashSet<usize> = group.members.iter().copied().collect();
            let needed = |i: usize, slots: &HashMap<u64, Slot>| {
                let id = pending[i].out;
                alive(id, slots)
                    || consumers
                        .get(&id)
                        .is_some_and(|c| c.iter().any(|j| !members.contains(j)))
            };
            // A view or an inlined constant has no buffer an op kernel could take.
            let in_place = |i: usize| {
                pending[i]
                    .inputs
                    .iter()
                    .any(|x| x.view.is_some() || x.constant.is_some())
            };
            if group.members.len() == 1 && !in_place(group.members[0]) {
                let p = &pending[group.members[0]];
                if !needed(group.members[0], &self.slots) {
                    // Nothing reads it: dead code, never launched.
                    self.slots.remove(&p.out);
                    continue;
                }
                let mut reals = Vec::with_capacity(p.inputs.len());
                for input in &p.inputs {
                    reals.push(self.real(BufferId(input.id))?);
                }
                let operands: Vec<Operand> = p
                    .inputs
                    .iter()
                    .zip(&reals)
                    .map(|(i, &buffer)| Operand {
                        buffer,
                        shape: &i.shape,
                        dtype: i.dtype,
                    })
                    .collect();
                let done =
                    self.launch_op(&p.op, &operands, &p.out_shape, p.out_dtype, p.op_index)?;
                let was_alive = alive(p.out, &self.slots);
                self.slots.insert(p.out, Slot::Real(done.buffer));
                if !was_alive {
                    temporaries.push(p.out);
                }
                continue;
            }
            let (kernel, external, outputs) =
                plan::build_kernel(&pending, &group, &|i| needed(i, &self.slots));
            if outputs.is_empty() {
                // Nothing the group makes is read: dead code, never launched.
                for &i in &group.members {
                    self.slots.remove(&pending[i].out);
                }
                continue;
            }
            if external.len() + outputs.len() > MAX_FUSED_BUFFERS {
                // The guess was wrong: more values must be written than a
                // kernel can bind. Split the group in two (members keep
                // program order, so the halves run in a valid order), plan
                // each half afresh, and retry.
                let (first, second) = group.members.split_at(group.members.len() / 2);
                let exact = |i: usize| needed(i, &self.slots);
                let mut halves = plan::plan(&pending, first, fuses, &exact);
                halves.extend(plan::plan(&pending, second, fuses, &exact));
                for half in halves.into_iter().rev() {
                    queue.push_front(half);
                }
                continue;
            }
            let mut reals = Vec::with_capacity(external.len());
            for &id in &external {
                reals.push(self.real(BufferId(id))?);
            }
            let code_key = kernel.code_key();
            let (fingerprint, lookup) = self.cache.launch(self.inner.kind(), &code_key);
            let started = self.now(lookup != Lookup::Hit);
            let done = self.inner.execute_fused(&kernel, &reals)?;
            for (&i, &buffer) in outputs.iter().zip(&done.buffers) {
                let id = pending[i].out;
                let was_alive = alive(id, &self.slots);
                self.slots.insert(id, Slot::Real(buffer));
                if !was_alive {
                    temporaries.push(id);
                }
            }
            // Values computed inside the kernel and never written.
            for &i in &group.members {
                if !outputs.contains(&i) {
                    self.slots.remove(&pending[i].out);
                }
            }
            let mut ops: Vec<usize> = group.members.iter().map(|&i| pending[i].op_index).collect();
            for x in group.members.iter().flat_map(|&i| &pending[i].inputs) {
                if let Some((_, fill)) = x.constant
                    && inlined.insert(fill)
                {
                    ops.push(fill);
                }
            }
            ops.sort_unstable();
            let launch = Launch {
                name: format!("fused_{fingerprint}"),
                language: done.kernel_language,
                fingerprint,
                code_key,
                lookup,
                source: Some(done.source),
                work: crate::work::fused_work(&kernel),
                launch: done.launch,
            };
            self.record(launch, ops, started);
        }
        self.doomed.append(&mut temporaries);
        self.doomed_release();
        Ok(())
    }

    /// Frees the real buffers that waited for the pending ops reading them
    /// (they ran, or were dropped).
    fn doomed_release(&mut self) {
        for id in std::mem::take(&mut self.doomed) {
            if let Some(Slot::Real(b)) = self.slots.remove(&id) {
                self.inner.free(b);
            }
        }
    }
}
