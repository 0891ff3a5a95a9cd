//! `torch.compile`'s side in the runtime: capturing a compiled function's ops
//! into a graph, running the graph as a whole, and the records the Report keeps
//! of every compiled function (its guards, compiles, recompiles, graph breaks,
//! kernels and StableHLO).
//!
//! The prelude's `torch.compile` decides, from the call's guards, whether a
//! call needs a (re)compile, and brackets each call with `capture_begin` and
//! `capture_end`. Between the two every op is deferred whatever the eager mode,
//! so that a graph is planned whole when it ends (the eager Fused planner sees
//! only what is pending at a read); each op is also recorded as a node of the
//! graph. A read of a tensor's value the program asked for (`.item()`,
//! `print`, `if tensor:`) is a graph break, as in Dynamo: the graph so far runs,
//! the read happens, and capture goes on in a new graph. With `fullgraph=True`
//! a break is an error instead. Reads the runtime makes for itself (a host
//! fallback's operands, an index) are host steps inside the graph.
//!
//! At the end of a compile's first call each graph is lowered to StableHLO
//! (`stablehlo.rs`): the module the graph is, checked by real XLA in the tests.

use crate::backend::BufferId;
use crate::data::HostData;
use crate::tensor::{Home, Tensor};
use std::collections::{HashMap, HashSet};
use tpu_ir::{DType, Op, Shape};

mod backward;
mod breaks;
mod export;
mod graphs;
mod padded;
mod record;
mod replay;
pub mod stablehlo;

use breaks::break_reason;
pub use export::ExportedGraph;
pub use record::{
    CompileRecord, CompiledFunction, GraphBreak, GraphRecord, PaddingRecord, TensorType,
};

/// A value of a captured graph: the buffer that holds it.
pub(crate) type Key = (Home, BufferId);

/// A value of a graph with the shape and dtype it is read (or made) with.
pub type Typed = (u64, Shape, DType);

/// One op of a captured graph.
#[derive(Clone, Debug)]
pub struct Node {
    pub op: Op,
    /// The operands as the op read them: the value, and its shape and dtype at
    /// this use (a reshaped view reads a value under another shape).
    pub inputs: Vec<Typed>,
    pub out: u64,
    pub out_shape: Shape,
    pub out_dtype: DType,
    /// The op's index in the Report's op stream.
    pub op_index: usize,
}

/// A graph as the StableHLO lowering takes it: its parameters (values made
/// before it), its nodes in program order, and the values it returns.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub inputs: Vec<Typed>,
    pub nodes: Vec<Node>,
    pub outputs: Vec<Typed>,
}

enum Event {
    Op(Node),
    Break {
        reason: String,
        line: Option<u32>,
        /// The value the break read, a result of the graph before it.
        value: Option<Typed>,
    },
}

/// The capture in progress.
pub(crate) struct Capture {
    function: usize,
    compile: usize,
    /// The first call of a compile: its graphs are recorded and lowered.
    recording: bool,
    fullgraph: bool,
    /// Compiled functions called from a compiled function are inlined.
    pub(crate) depth: usize,
    events: Vec<Event>,
    /// Values made by the graph's ops so far, and by the current graph's.
    made: HashSet<u64>,
    segment_made: HashSet<u64>,
    /// Kernels launched and host steps since the current graph began.
    first_kernel: usize,
    /// Each finished graph's kernels, as a range of the run's kernels.
    kernels: Vec<std::ops::Range<usize>>,
    host_steps: Vec<usize>,
    /// Values read back for export (`export_graphs`): the parameters and
    /// results of each graph, by value.
    values: HashMap<u64, HostData>,
    /// Values of keys: buffers are numbered per backend, so the host's and
    /// the accelerator's get distinct numbers here.
    ids: HashMap<Key, u64>,
    /// Each value the graphs read that they did not make, as a tensor (for
    /// a custom backend's example inputs and each call's graph inputs).
    tensors: HashMap<u64, Tensor>,
    /// A backward's capture: its results are the gradients it accumulated,
    /// by leaf.
    backward: Option<Vec<(usize, Tensor)>>,
    /// The call's argument sizes by name (`x.size(1)`), and which of them
    /// the compile holds dynamic.
    sizes: Vec<(String, i64)>,
    dynamic: Vec<String>,
}

#[derive(Default)]
pub(crate) struct CompileState {
    pub(crate) functions: Vec<CompiledFunction>,
    pub(crate) capture: Option<Capture>,
    /// Read the values of each recorded graph's parameters and results, so
    /// that the graph can be exported with them.
    pub(crate) export: bool,
    pub(crate) exported: Vec<ExportedGraph>,
    /// The graphs of each compile's latest call, by (function, compile,
    /// graph), for `graph_replay` (a custom backend's `gm.forward`).
    pub(crate) latest: HashMap<(usize, usize, usize), Graph>,
    /// The input tensors of each graph of the call that ended last.
    pub(crate) last_inputs: Vec<Vec<Tensor>>,
    /// Captures paused by `capture_pause`, innermost last.
    pub(crate) paused: Vec<Capture>,
    /// Bounded dynamic shapes: fits, bounds and constants.
    pub(crate) padding: padded::PadState,
    /// While a padded graph's ops are issued: the op of the program each
    /// belongs to (they are not ops of the program themselves).
    pub(crate) quiet_op: Option<usize>,
}

impl Capture {
    /// A capture of compile `origin.1` of function `origin.0`, from kernel
    /// `first_kernel` on; `backward` for a backward's.
    fn new(
        origin: (usize, usize),
        recording: bool,
        fullgraph: bool,
        first_kernel: usize,
        backward: Option<Vec<(usize, Tensor)>>,
    ) -> Capture {
        Capture {
            function: origin.0,
            compile: origin.1,
            recording,
            fullgraph,
            depth: 0,
            events: Vec::new(),
            made: HashSet::new(),
            segment_made: HashSet::new(),
            first_kernel,
            kernels: Vec::new(),
            host_steps: vec![0],
            values: HashMap::new(),
            ids: HashMap::new(),
            tensors: HashMap::new(),
            backward,
            sizes: Vec::new(),
            dynamic: Vec::new(),
        }
    }

    /// Whether the graph being captured has an op yet.
    fn segment_has_ops(&self) -> bool {
        self.events
            .iter()
            .rev()
            .take_while(|e| !matches!(e, Event::Break { .. }))
            .any(|e| matches!(e, Event::Op(_)))
    }

    fn id(&mut self, key: Key) -> u64 {
        let next = self.ids.len() as u64;
        *self.ids.entry(key).or_insert(next)
    }

    /// Whether the value `key` names is one the current graph did not make
    /// and has not read before (so its values are wanted for export).
    fn first_outside_use(&mut self, key: Key) -> Option<u64> {
        let id = self.id(key);
        (!self.made.contains(&id) && !self.values.contains_key(&id)).then_some(id)
    }
}

impl crate::Runtime {
    /// `torch.compile(fn)`: a new compiled function's record; returns its id.
    pub fn compile_register(
        &mut self,
        name: String,
        fullgraph: bool,
        dynamic: Option<bool>,
    ) -> usize {
        self.compiled.functions.push(CompiledFunction {
            name,
            line: self.line,
            fullgraph,
            dynamic,
            calls: 0,
            eager_calls: 0,
            compiles: Vec::new(),
            notes: Vec::new(),
        });
        self.compiled.functions.len() - 1
    }

    /// A call of compiled function `function` that runs eagerly (past the
    /// cache size limit); `note` is said once.
    pub fn compile_eager_call(&mut self, function: usize, note: Option<String>) {
        if let Some(f) = self.compiled.functions.get_mut(function) {
            f.calls += 1;
            f.eager_calls += 1;
            if let Some(note) = note
                && !f.notes.contains(&note)
            {
                f.notes.push(note);
            }
        }
    }

    /// The compiled function and compile whose forward is being captured:
    /// the autograd nodes made now belong to its graph.
    pub(crate) fn compiled_origin(&self) -> Option<(usize, usize)> {
        self.compiled
            .capture
            .as_ref()
            .filter(|c| c.backward.is_none())
            .map(|c| (c.function, c.compile))
    }

    /// Whether a capture is running (`torch.compiler.is_compiling()`).
    pub fn is_capturing(&self) -> bool {
        self.compiled.capture.is_some()
    }

    /// Starts a call of compiled function `function` under its compile
    /// `compile`; a `compile` one past the last is a new compile, with the
    /// guards it holds under and why it was needed. Inside another capture the
    /// call is inlined into that graph. `sizes` are the sizes the call's
    /// arguments carry, by name, for a dynamic compile's padding.
    pub async fn capture_begin(
        &mut self,
        (function, compile): (usize, usize),
        guards: Vec<String>,
        reason: Option<String>,
        dynamic_dims: Vec<String>,
        sizes: Vec<(String, i64)>,
    ) -> Result<(), crate::RuntimeError> {
        let line = self.line;
        let Some(f) = self.compiled.functions.get_mut(function) else {
            return Err(crate::RuntimeError::Message(
                "internal: unknown compiled function".into(),
            ));
        };
        f.calls += 1;
        let recording = compile == f.compiles.len();
        if recording {
            f.compiles.push(CompileRecord {
                guards,
                reason,
                dynamic_dims: dynamic_dims.clone(),
                line,
                calls: 0,
                graphs: Vec::new(),
                breaks: Vec::new(),
                backward: Vec::new(),
                backward_calls: 0,
                padding: None,
            });
        }
        let fullgraph = f.fullgraph;
        if let Some(c) = f.compiles.get_mut(compile) {
            c.calls += 1;
        }
        if let Some(capture) = self.compiled.capture.as_mut() {
            capture.depth += 1;
            return Ok(());
        }
        // The graph starts from nothing pending, and everything it makes
        // waits until it ends, whatever the eager mode.
        self.tpu.flush()?;
        self.tpu.set_deferring(true)?;
        let mut capture = Capture::new(
            (function, compile),
            recording,
            fullgraph,
            self.tpu.kernels.len(),
            None,
        );
        capture.sizes = sizes;
        capture.dynamic = dynamic_dims;
        self.compiled.capture = Some(capture);
        Ok(())
    }

    /// Ends the call `capture_begin` started; `outputs` are the tensors it
    /// returned. The graph runs now, as one plan.
    pub async fn capture_end(&mut self, outputs: &[Tensor]) -> Result<(), crate::RuntimeError> {
        match self.compiled.capture.as_mut() {
            None => return Ok(()),
            Some(c) if c.depth > 0 => {
                c.depth -= 1;
                return Ok(());
            }
            Some(_) => {}
        }
        let mut dense = Vec::with_capacity(outputs.len());
        for t in outputs {
            dense.push(self.dense(t).await?);
        }
        // A dynamic compile's graph may run padded in place of its ops.
        let mut result = Ok(());
        if let Some(capture) = self.compiled.capture.take() {
            result = self.pad_capture(&capture).await;
            self.compiled.capture = Some(capture);
        }
        let result = result.and(self.tpu.flush().map_err(Into::into));
        let Some(mut capture) = self.compiled.capture.take() else {
            return Ok(());
        };
        self.tpu
            .set_deferring(self.mode == crate::EagerMode::Fused)?;
        result?;
        capture
            .kernels
            .push(capture.first_kernel..self.tpu.kernels.len());
        let mut results = Vec::with_capacity(dense.len());
        for t in &dense {
            let id = capture.id((t.home(), t.buffer()));
            if self.compiled.export && capture.recording && !capture.values.contains_key(&id) {
                let data = self.read_dense_quiet(t).await?;
                capture.values.insert(id, data);
            }
            results.push((id, t.shape(), t.dtype()));
        }
        self.record_graphs(capture, results);
        Ok(())
    }

    /// Abandons the capture after the compiled function raised.
    pub fn capture_abort(&mut self) {
        if let Some(c) = self.compiled.capture.as_mut()
            && c.depth > 0
        {
            c.depth -= 1;
            return;
        }
        if self.compiled.capture.take().is_some() {
            let _ = self.tpu.set_deferring(self.mode == crate::EagerMode::Fused);
        }
    }

    /// Records `op`, just dispatched, as a node of the graph being captured.
    pub(crate) async fn capture_op(
        &mut self,
        op: &Op,
        inputs: &[&Tensor],
        out: (Key, &Shape, DType),
    ) -> Result<(), crate::RuntimeError> {
        let export = self.compiled.export;
        let Some(capture) = self.compiled.capture.as_mut() else {
            return Ok(());
        };
        let out_id = capture.id(out.0);
        if matches!(op, Op::Random { .. } | Op::Nonzero) {
            // Drawn or computed on the host: a parameter of the graph.
            return Ok(());
        }
        let mut wanted = Vec::new();
        let mut node_inputs = Vec::with_capacity(inputs.len());
        for t in inputs {
            let key = (t.home(), t.buffer());
            let id = capture.id(key);
            if !capture.segment_made.contains(&id) && !capture.tensors.contains_key(&id) {
                // A handle of its own: an in-place update of the program's
                // tensor later does not change what the graph read.
                capture
                    .tensors
                    .insert(id, Tensor::from_layout((*t).layout()));
            }
            if capture.recording
                && export
                && let Some(id) = capture.first_outside_use(key)
            {
                wanted.push((id, (*t).clone()));
            }
            node_inputs.push((id, t.shape(), t.dtype()));
        }
        capture.made.insert(out_id);
        capture.segment_made.insert(out_id);
        capture.events.push(Event::Op(Node {
            op: op.clone(),
            inputs: node_inputs,
            out: out_id,
            out_shape: out.1.clone(),
            out_dtype: out.2,
            // The op was logged just before it was captured.
            op_index: self.ops.len() - 1,
        }));
        for (id, t) in wanted {
            let data = self.read_dense_quiet(&t).await?;
            if let Some(c) = self.compiled.capture.as_mut() {
                c.values.insert(id, data);
            }
        }
        Ok(())
    }

    /// A read during a capture: a graph break when the program asked for the
    /// value (an error under `fullgraph=True`), a host step otherwise. For a
    /// break, whether the value read is wanted for export.
    pub(crate) fn capture_read(
        &mut self,
        t: &Tensor,
        sync_reason: &str,
    ) -> Result<Option<bool>, crate::RuntimeError> {
        let line = self.line;
        let Some(capture) = self.compiled.capture.as_mut() else {
            return Ok(None);
        };
        if t.device().is_host() {
            return Ok(None);
        }
        let segment_has_ops = capture.segment_has_ops();
        let kind = break_reason(sync_reason, t.dtype());
        let reason = match kind {
            Some((_, Some(error))) if capture.fullgraph => {
                let place = line.map_or(String::new(), |l| format!("\n   line {l}"));
                return Err(crate::RuntimeError::GraphBreak(format!(
                    "graph break: {error}\n\nfrom user code:{place}"
                )));
            }
            Some((reason, _)) if !capture.fullgraph && segment_has_ops => reason,
            Some(_) if !capture.fullgraph => return Ok(None),
            _ => {
                if let Some(n) = capture.host_steps.last_mut() {
                    *n += 1;
                }
                return Ok(None);
            }
        };
        let id = capture.id((t.home(), t.buffer()));
        capture.events.push(Event::Break {
            reason: reason.to_string(),
            line,
            value: Some((id, t.shape(), t.dtype())),
        });
        capture.host_steps.push(0);
        capture.segment_made.clear();
        Ok(Some(capture.recording && self.compiled.export))
    }

    /// A graph break that reads no tensor (a `print`, a call of a function
    /// `torch.compiler.disable` keeps out of graphs): the graph so far runs
    /// now. Under `fullgraph=True` an error, when `fullgraph_error`.
    pub async fn capture_break(
        &mut self,
        reason: String,
        fullgraph_error: bool,
    ) -> Result<(), crate::RuntimeError> {
        let line = self.line;
        let Some(capture) = self.compiled.capture.as_mut() else {
            return Ok(());
        };
        if capture.fullgraph {
            if !fullgraph_error {
                return Ok(());
            }
            let place = line.map_or(String::new(), |l| format!("\n   line {l}"));
            return Err(crate::RuntimeError::GraphBreak(format!(
                "graph break: {reason}\n\nfrom user code:{place}"
            )));
        }
        if !capture.segment_has_ops() {
            return Ok(());
        }
        capture.events.push(Event::Break {
            reason,
            line,
            value: None,
        });
        capture.host_steps.push(0);
        capture.segment_made.clear();
        self.tpu.flush()?;
        let kernels_now = self.tpu.kernels.len();
        if let Some(capture) = self.compiled.capture.as_mut() {
            capture.kernels.push(capture.first_kernel..kernels_now);
            capture.first_kernel = kernels_now;
        }
        Ok(())
    }

    /// Stops capturing for a while (a `torch.compiler.disable`d function
    /// runs eagerly, in the eager mode), until `capture_resume`.
    pub fn capture_pause(&mut self) -> Result<(), crate::RuntimeError> {
        if let Some(c) = self.compiled.capture.take() {
            self.tpu.flush()?;
            self.tpu
                .set_deferring(self.mode == crate::EagerMode::Fused)?;
            self.compiled.paused.push(c);
        }
        Ok(())
    }

    pub fn capture_resume(&mut self) -> Result<(), crate::RuntimeError> {
        if let Some(mut c) = self.compiled.paused.pop() {
            self.tpu.flush()?;
            self.tpu.set_deferring(true)?;
            c.first_kernel = self.tpu.kernels.len();
            self.compiled.capture = Some(c);
        }
        Ok(())
    }

    /// After a break's read (which ran the graph before it): that graph's
    /// kernels, and the value read when graphs are exported.
    pub(crate) fn capture_after_break(&mut self, t: &Tensor, data: Option<&HostData>) {
        let kernels_now = self.tpu.kernels.len();
        if let Some(capture) = self.compiled.capture.as_mut() {
            capture.kernels.push(capture.first_kernel..kernels_now);
            capture.first_kernel = kernels_now;
            if let Some(data) = data {
                let id = capture.id((t.home(), t.buffer()));
                capture.values.insert(id, data.clone());
            }
        }
    }

    /// Keeps the values of every recorded graph's parameters and results,
    /// for `take_exported_graphs` (`tpu run --emit-stablehlo`).
    pub fn set_export_graphs(&mut self, on: bool) {
        self.compiled.export = on;
    }

    /// The graphs recorded since the last call, with their values.
    pub fn take_exported_graphs(&mut self) -> Vec<ExportedGraph> {
        std::mem::take(&mut self.compiled.exported)
    }
}

/// A name usable as a file name and an MLIR symbol.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() { "graph".into() } else { s }
}
