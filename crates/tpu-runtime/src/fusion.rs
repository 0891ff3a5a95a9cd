//! The eager modes' execution layer, between the dispatcher and the `tpu`
//! backend. In Debug and Strict it passes each op straight through (one kernel
//! per op). In Fused it defers ops: each returns a buffer id at once, and the op
//! joins a pending graph; at a materialisation point (a read) the graph is cut
//! into fusion groups, each group runs as one kernel, and only values still
//! referenced afterwards get buffers. Every launch is logged as a
//! `KernelRecord`; fused kernels are keyed by their fingerprint in a
//! compilation cache shared by all modes.

use crate::backend::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, Operand, ReadFuture,
};
use crate::data::HostData;
use crate::report::{CacheStats, KernelRecord};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use tpu_ir::{DType, FusedInput, FusedKernel, FusedNode, Op, Shape};

/// TorchTPU's three eager modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// The most storage buffers a fused kernel binds (inputs and outputs; its
/// parameters are a uniform buffer): WebGPU's guaranteed 8 per shader stage.
const MAX_FUSED_BUFFERS: usize = 8;

/// The highest rank a fused kernel indexes (as the broadcasting kernels).
const MAX_FUSED_RANK: usize = 8;

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
    /// Fingerprints compiled so far in this session (the compilation cache).
    compiled: HashSet<String>,
    pub(crate) cache: CacheStats,
    /// The op-stream index the next `execute` belongs to.
    pub(crate) op_index: usize,
    /// Milliseconds from some fixed origin, for compile times (the host's
    /// clock natively, `Date.now()` in a browser); none, none measured.
    pub(crate) clock: Option<Box<dyn Fn() -> f64>>,
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
            compiled: HashSet::new(),
            cache: CacheStats::default(),
            op_index: 0,
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

    fn record(
        &mut self,
        name: String,
        ops: Vec<usize>,
        language: &str,
        fused: Option<(&FusedKernel, String, bool)>,
    ) {
        let (fingerprint, source, cache_hit) = match fused {
            Some((k, source, hit)) => (Some(k.fingerprint()), Some(source), Some(hit)),
            None => (None, None, None),
        };
        self.kernels.push(KernelRecord {
            name,
            ops,
            backend: self.inner.kind(),
            kernel_language: language.to_string(),
            fingerprint,
            cache_hit,
            source,
            compile_ms: None,
        });
    }

    /// Whether pending op `p` can join an elementwise fusion group.
    fn fusible(&self, p: &Pending) -> bool {
        matches!(
            p.op,
            Op::Binary { .. } | Op::BinaryScalar { .. } | Op::Unary { .. } | Op::Fill { .. }
        ) && p.out_dtype == DType::Float32
            && p.out_shape.rank() <= MAX_FUSED_RANK
            && p.out_shape.numel() > 0
            && p.inputs.iter().all(|i| i.dtype == DType::Float32)
            && self.inner.supports_fused()
    }

    /// Runs every pending op: cuts the pending graph into groups, launches one
    /// kernel per group, and gives buffers to the values still referenced.
    pub(crate) fn flush(&mut self) -> Result<(), BackendError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        // Which pending values are read by which later pending ops.
        let mut consumers: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, p) in pending.iter().enumerate() {
            for input in &p.inputs {
                consumers.entry(input.id).or_default().push(i);
            }
        }
        let alive = |id: u64, slots: &HashMap<u64, Slot>| {
            matches!(slots.get(&id), Some(Slot::Pending { freed: false }))
        };
        // A first guess of which values a group must write: those a tensor holds,
        // and those read by an op that cannot join an elementwise group of the
        // same shape.
        let likely_output = |i: usize| {
            let p = &pending[i];
            alive(p.out, &self.slots)
                || consumers.get(&p.out).is_some_and(|c| {
                    c.iter()
                        .any(|&j| !self.fusible(&pending[j]) || pending[j].out_shape != p.out_shape)
                })
        };
        let groups = self.plan(&pending, &likely_output);
        // Real buffers made during this flush for values no tensor holds.
        let mut temporaries = Vec::new();
        let mut queue: std::collections::VecDeque<Vec<usize>> = groups.into();
        while let Some(group) = queue.pop_front() {
            let members: HashSet<usize> = group.iter().copied().collect();
            let needed = |i: usize, slots: &HashMap<u64, Slot>| {
                let id = pending[i].out;
                alive(id, slots)
                    || consumers
                        .get(&id)
                        .is_some_and(|c| c.iter().any(|j| !members.contains(j)))
            };
            if group.len() == 1 {
                let p = &pending[group[0]];
                if !needed(group[0], &self.slots) {
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
                let done = self
                    .inner
                    .execute(&p.op, &operands, &p.out_shape, p.out_dtype)?;
                let was_alive = alive(p.out, &self.slots);
                self.slots.insert(p.out, Slot::Real(done.buffer));
                if !was_alive {
                    temporaries.push(p.out);
                }
                self.record(done.kernel, vec![p.op_index], done.kernel_language, None);
                continue;
            }
            let (kernel, external, outputs) =
                self.build_kernel(&pending, &group, &|i| needed(i, &self.slots));
            if external.len() + outputs.len() > MAX_FUSED_BUFFERS {
                // The guess was wrong: more values must be written than a
                // kernel can bind. Split the group in two (members keep
                // program order, so the halves run in a valid order) and retry.
                let (first, second) = group.split_at(group.len() / 2);
                queue.push_front(second.to_vec());
                queue.push_front(first.to_vec());
                continue;
            }
            let mut reals = Vec::with_capacity(external.len());
            for &id in &external {
                reals.push(self.real(BufferId(id))?);
            }
            let fingerprint = kernel.fingerprint();
            let hit = self.compiled.contains(&fingerprint);
            let started = (!hit).then(|| self.clock.as_ref().map(|c| c())).flatten();
            let done = self.inner.execute_fused(&kernel, &reals)?;
            let mut compile_ms = None;
            if hit {
                self.cache.hits += 1;
            } else {
                self.cache.misses += 1;
                self.compiled.insert(fingerprint.clone());
                self.cache.entries = self.compiled.len();
                if let (Some(t0), Some(clock)) = (started, self.clock.as_ref()) {
                    let ms = clock() - t0;
                    self.cache.compile_ms += ms;
                    compile_ms = Some(ms);
                }
            }
            for (&i, &buffer) in outputs.iter().zip(&done.buffers) {
                let id = pending[i].out;
                let was_alive = alive(id, &self.slots);
                self.slots.insert(id, Slot::Real(buffer));
                if !was_alive {
                    temporaries.push(id);
                }
            }
            // Values computed inside the kernel and never written.
            for &i in &group {
                if !outputs.contains(&i) {
                    self.slots.remove(&pending[i].out);
                }
            }
            let ops = group.iter().map(|&i| pending[i].op_index).collect();
            self.record(
                format!("fused_{fingerprint}"),
                ops,
                done.kernel_language,
                Some((&kernel, done.source, hit)),
            );
            if let Some(last) = self.kernels.last_mut() {
                last.compile_ms = compile_ms;
            }
        }
        temporaries.append(&mut self.doomed);
        for id in temporaries {
            if let Some(Slot::Real(b)) = self.slots.remove(&id) {
                self.inner.free(b);
            }
        }
        Ok(())
    }

    /// Cuts the pending ops into groups, in an order that respects their data
    /// dependencies (pending values are immutable, so independent ops may move):
    /// elementwise ops join the open group of their iteration shape, within the
    /// buffer limit; any other op is a group of its own, emitted at once; a
    /// group is closed (emitted) as soon as an op outside it reads one of its
    /// values.
    fn plan(&self, pending: &[Pending], likely_output: &dyn Fn(usize) -> bool) -> Vec<Vec<usize>> {
        struct Open {
            shape: Shape,
            members: Vec<usize>,
            produced: HashSet<u64>,
            external: HashSet<u64>,
            outputs: usize,
        }
        let mut groups = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        for (i, p) in pending.iter().enumerate() {
            let fusible = self.fusible(p);
            let target = if fusible {
                open.iter().position(|g| g.shape == p.out_shape)
            } else {
                None
            };
            // Groups this op reads from must run first (unless it joins them).
            let mut k = 0;
            while k < open.len() {
                let reads = p.inputs.iter().any(|x| open[k].produced.contains(&x.id));
                if reads && Some(k) != target {
                    groups.push(open.remove(k).members);
                } else {
                    k += 1;
                }
            }
            if !fusible {
                groups.push(vec![i]);
                continue;
            }
            let target = open.iter().position(|g| g.shape == p.out_shape);
            let fits = target.is_some_and(|k| {
                let g = &open[k];
                let new_external = p
                    .inputs
                    .iter()
                    .filter(|x| !g.produced.contains(&x.id) && !g.external.contains(&x.id))
                    .count();
                let out = usize::from(likely_output(i));
                g.external.len() + new_external + g.outputs + out <= MAX_FUSED_BUFFERS
            });
            let k = match target {
                Some(k) if fits => k,
                _ => {
                    if let Some(full) = target {
                        groups.push(open.remove(full).members);
                    }
                    open.push(Open {
                        shape: p.out_shape.clone(),
                        members: Vec::new(),
                        produced: HashSet::new(),
                        external: HashSet::new(),
                        outputs: 0,
                    });
                    open.len() - 1
                }
            };
            let g = &mut open[k];
            for x in &p.inputs {
                if !g.produced.contains(&x.id) {
                    g.external.insert(x.id);
                }
            }
            g.produced.insert(p.out);
            g.outputs += usize::from(likely_output(i));
            g.members.push(i);
        }
        groups.extend(open.into_iter().map(|g| g.members));
        groups
    }

    /// The SSA program of a group, its external inputs (ids) and the members
    /// whose values must be written.
    fn build_kernel(
        &self,
        pending: &[Pending],
        group: &[usize],
        needed: &dyn Fn(usize) -> bool,
    ) -> (FusedKernel, Vec<u64>, Vec<usize>) {
        let mut nodes = Vec::new();
        let mut node_of: HashMap<u64, usize> = HashMap::new();
        let mut inputs: Vec<FusedInput> = Vec::new();
        let mut external: Vec<u64> = Vec::new();
        let mut operand = |id: u64,
                           shape: &Shape,
                           dtype: DType,
                           nodes: &mut Vec<FusedNode>,
                           node_of: &mut HashMap<u64, usize>| {
            if let Some(&n) = node_of.get(&id) {
                return n;
            }
            external.push(id);
            inputs.push(FusedInput {
                shape: shape.clone(),
                dtype,
            });
            nodes.push(FusedNode::Input {
                index: inputs.len() - 1,
            });
            node_of.insert(id, nodes.len() - 1);
            nodes.len() - 1
        };
        let mut member_node = Vec::new();
        for &i in group {
            let p = &pending[i];
            let args: Vec<usize> = p
                .inputs
                .iter()
                .map(|x| operand(x.id, &x.shape, x.dtype, &mut nodes, &mut node_of))
                .collect();
            let node = match &p.op {
                Op::Binary { op } => FusedNode::Binary {
                    op: *op,
                    a: args[0],
                    b: args[1],
                },
                Op::BinaryScalar {
                    op,
                    scalar,
                    scalar_on_left,
                } => FusedNode::Scalar {
                    op: *op,
                    x: args[0],
                    scalar: *scalar,
                    scalar_on_left: *scalar_on_left,
                },
                Op::Unary { op } => FusedNode::Unary {
                    op: *op,
                    x: args[0],
                },
                Op::Fill { value } => FusedNode::Const { value: *value },
                other => unreachable!("{other:?} is not fusible"),
            };
            nodes.push(node);
            node_of.insert(p.out, nodes.len() - 1);
            member_node.push((i, nodes.len() - 1));
        }
        let outputs: Vec<usize> = member_node
            .iter()
            .filter(|(i, _)| needed(*i))
            .map(|(i, _)| *i)
            .collect();
        let kernel = FusedKernel {
            shape: pending[group[0]].out_shape.clone(),
            dtype: DType::Float32,
            inputs,
            nodes,
            outputs: member_node
                .iter()
                .filter(|(i, _)| outputs.contains(i))
                .map(|(_, n)| *n)
                .collect(),
        };
        (kernel, external, outputs)
    }
}

impl Backend for FusingBackend {
    fn kind(&self) -> BackendKind {
        self.inner.kind()
    }

    fn device_description(&self) -> String {
        self.inner.device_description()
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        let real = self.inner.upload(data)?;
        Ok(self.fresh(Slot::Real(real)))
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        if self.deferring {
            self.inner.check(op, inputs, out_shape, out_dtype)?;
            let out = self.next_id + 1;
            self.pending.push(Pending {
                op: op.clone(),
                inputs: inputs
                    .iter()
                    .map(|i| PendingInput {
                        id: i.buffer.0,
                        shape: i.shape.clone(),
                        dtype: i.dtype,
                    })
                    .collect(),
                out_shape: out_shape.clone(),
                out_dtype,
                out,
                op_index: self.op_index,
            });
            let id = self.fresh(Slot::Pending { freed: false });
            debug_assert_eq!(id.0, out);
            return Ok(Dispatched {
                buffer: id,
                kernel: "deferred".into(),
                kernel_language: "",
            });
        }
        let mut reals = Vec::with_capacity(inputs.len());
        for i in inputs {
            reals.push(self.real(i.buffer)?);
        }
        let operands: Vec<Operand> = inputs
            .iter()
            .zip(&reals)
            .map(|(i, &buffer)| Operand {
                buffer,
                shape: i.shape,
                dtype: i.dtype,
            })
            .collect();
        let done = self.inner.execute(op, &operands, out_shape, out_dtype)?;
        let id = self.fresh(Slot::Real(done.buffer));
        self.record(
            done.kernel.clone(),
            vec![self.op_index],
            done.kernel_language,
            None,
        );
        Ok(Dispatched {
            buffer: id,
            kernel: done.kernel,
            kernel_language: done.kernel_language,
        })
    }

    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        let real = self.flush().and_then(|()| self.real(buffer));
        match real {
            Ok(real) => self.inner.read(real, dtype, len),
            Err(e) => Box::pin(async move { Err(e) }),
        }
    }

    fn free(&mut self, buffer: BufferId) {
        let read_by_pending = || {
            self.pending
                .iter()
                .any(|p| p.inputs.iter().any(|i| i.id == buffer.0))
        };
        if matches!(self.slots.get(&buffer.0), Some(Slot::Real(_))) && read_by_pending() {
            // A pending op still reads it: free it after the graph runs.
            self.doomed.push(buffer.0);
            return;
        }
        match self.slots.get_mut(&buffer.0) {
            Some(Slot::Real(b)) => {
                let b = *b;
                self.slots.remove(&buffer.0);
                self.inner.free(b);
            }
            Some(Slot::Pending { freed }) => *freed = true,
            None => {}
        }
    }

    fn live_buffers(&self) -> usize {
        self.inner.live_buffers()
            + self
                .slots
                .values()
                .filter(|s| matches!(s, Slot::Pending { freed: false }))
                .count()
    }
}
