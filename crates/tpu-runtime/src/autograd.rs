//! Reverse-mode autograd. Every differentiable op records a `Node` on its output
//! when gradients are enabled and an input requires them; `backward` walks the
//! graph from a root in reverse topological order, computes each node's input
//! gradients with ordinary runtime ops (so they run on the same backend, and are
//! logged and later fused like forward ops), and accumulates leaf gradients into
//! `.grad`. Saved tensors are released after a backward pass unless
//! `retain_graph` is set, which is how a second `backward` fails as in PyTorch.
//!
//! This file is the graph engine: nodes, recording, the walk and leaf
//! accumulation. The walk is resumable (`walk_start`, `walk_next`,
//! `walk_deliver`, `walk_finish`): it stops at a node whose backward the
//! program wrote in Python (`torch.autograd.Function`), which the
//! interpreter runs before handing the input gradients back. What each op's
//! gradient is (`GradFn`, its name and its backward formula) lives in
//! `autograd/formulas.rs` (the elementwise ops' in `formulas/elementwise.rs`);
//! the op's runtime entry point records the node.

use crate::runtime::{Runtime, RuntimeError};
use crate::tensor::Tensor;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use tpu_ir::BinaryOp;

mod formulas;
mod waiting;
pub(crate) use formulas::GradFn;
use waiting::{Waiting, sends_parts};

/// A backward pass in progress: the nodes still to run, in order, the
/// gradients waiting for them, and what `autograd.grad` collects.
pub struct Walk {
    order: std::vec::IntoIter<Rc<Node>>,
    pending: HashMap<usize, Waiting>,
    captured: HashMap<usize, Tensor>,
    retain_graph: bool,
    capture: Option<Vec<usize>>,
    grad_mode: bool,
}

/// Where `walk_next` stopped.
pub enum WalkStep {
    Done,
    /// A `torch.autograd.Function`'s node: the caller calls `payload` with
    /// `grad` and hands the input gradients to `walk_deliver`.
    Custom {
        node: Rc<Node>,
        payload: Rc<dyn std::any::Any>,
        grad: Tensor,
    },
}

/// One recorded op in the autograd graph.
pub struct Node {
    name: RefCell<String>,
    grad_fn: RefCell<Option<GradFn>>,
    saves: bool,
    /// The op's tensor inputs, `None` where an input does not require grad.
    /// Emptied once a backward has freed the node's saved values, so that
    /// the graph `loss` still holds no longer keeps every activation alive
    /// (PyTorch's nodes hold edges, not tensors): the values are then free
    /// for Fused mode to never materialise (a strided copy read in place).
    inputs: RefCell<Vec<Option<Tensor>>>,
    /// The node that made each input when this node was recorded (`None`
    /// for a leaf): PyTorch's edges. Taken then, not looked up at backward,
    /// because an in-place op gives its tensor a new node afterwards.
    edges: RefCell<Vec<Option<Rc<Node>>>>,
    /// The version of each tensor the backward reads (`GradFn::reads`) as
    /// saved, and whether it is the node's own output: an in-place write
    /// since then is PyTorch's error at backward, not a wrong gradient.
    saved_versions: Vec<(u64, bool)>,
    released: Cell<bool>,
    /// Its place in the order nodes were made (PyTorch's `sequence_nr`):
    /// of the nodes ready to run, the walk runs the latest made first.
    seq: u64,
    /// The compiled function and compile whose graph made it: a backward
    /// through it is captured as that compile's backward graph.
    compiled: Option<(usize, usize)>,
}

thread_local! {
    /// The next node's `seq`, counted per thread as PyTorch counts per thread.
    static NEXT_SEQ: Cell<u64> = const { Cell::new(0) };
}

impl Node {
    pub fn name(&self) -> String {
        self.name.borrow().clone()
    }
}

const SECOND_BACKWARD: &str = "Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.";

impl Tensor {
    /// Gives the node that made this tensor PyTorch's name for a composite op
    /// (`softmax` is built from primitives but reports `SoftmaxBackward0`).
    pub fn rename_grad_fn(&self, name: &str) {
        if let Some(node) = &self.grad_state().grad_fn {
            *node.name.borrow_mut() = name.to_string();
        }
    }
}

impl Runtime {
    /// Records `grad_fn` on `out` if gradients are enabled and an input needs one.
    pub(crate) fn record(&self, out: &Tensor, grad_fn: GradFn, inputs: &[&Tensor]) {
        if !self.grad_enabled() || !inputs.iter().any(|t| t.requires_grad()) {
            return;
        }
        if !(out.dtype().is_floating()) {
            return;
        }
        let wants: Vec<bool> = inputs.iter().map(|t| t.requires_grad()).collect();
        let saved_versions = grad_fn
            .reads(&wants)
            .iter()
            .map(|t| (t.version(), t.same_storage(out)))
            .collect();
        let node = Node {
            name: RefCell::new(grad_fn.default_name()),
            saves: grad_fn.saves_tensors(),
            grad_fn: RefCell::new(Some(grad_fn)),
            inputs: RefCell::new(
                inputs
                    .iter()
                    .map(|t| t.requires_grad().then(|| (*t).clone()))
                    .collect(),
            ),
            edges: RefCell::new(
                inputs
                    .iter()
                    .map(|t| {
                        let state = t.grad_state();
                        if state.requires_grad {
                            state.grad_fn.clone()
                        } else {
                            None
                        }
                    })
                    .collect(),
            ),
            saved_versions,
            released: Cell::new(false),
            seq: NEXT_SEQ.with(|n| {
                let seq = n.get();
                n.set(seq + 1);
                seq
            }),
            compiled: self.compiled_origin(),
        };
        let mut state = out.grad_state();
        state.requires_grad = true;
        state.grad_fn = Some(Rc::new(node));
    }

    /// `tensor.requires_grad_(flag)`: only leaves of floating dtype may.
    pub fn set_requires_grad(&mut self, t: &Tensor, flag: bool) -> Result<(), RuntimeError> {
        if flag && !t.dtype().is_floating() {
            return Err(RuntimeError::Message(
                "only Tensors of floating point and complex dtype can require gradients".into(),
            ));
        }
        if !flag && !t.is_leaf() {
            return Err(RuntimeError::Message(
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().".into(),
            ));
        }
        t.grad_state().requires_grad = flag;
        Ok(())
    }

    /// `tensor.detach_()`: the tensor leaves the graph in place, keeping its
    /// values: no history, and no longer requiring grad.
    pub fn detach_in_place(&mut self, t: &Tensor) {
        let mut state = t.grad_state();
        state.requires_grad = false;
        state.grad_fn = None;
    }

    /// `tensor.retain_grad()`.
    pub fn retain_grad(&mut self, t: &Tensor) -> Result<(), RuntimeError> {
        if !t.requires_grad() {
            return Err(RuntimeError::Message(
                "can't retain_grad on Tensor that has requires_grad=False".into(),
            ));
        }
        t.grad_state().retains_grad = true;
        Ok(())
    }

    /// `root.backward(gradient, retain_graph)`, for a graph with no
    /// `torch.autograd.Function` in it (the interpreter drives the walk
    /// itself, `walk_next`, to run those).
    pub async fn backward(
        &mut self,
        root: &Tensor,
        gradient: Option<Tensor>,
        retain_graph: bool,
    ) -> Result<(), RuntimeError> {
        let walk = self.walk_start(root, gradient, retain_graph, None).await?;
        self.walk_to_end(walk).await.map(|_| ())
    }

    /// `torch.autograd.grad(root, inputs, gradient)`: the gradients of `root`
    /// with respect to `inputs` (`None` for one the graph does not reach),
    /// returned rather than accumulated into any `.grad`.
    pub async fn grad_of(
        &mut self,
        root: &Tensor,
        gradient: Option<Tensor>,
        inputs: &[Tensor],
        retain_graph: bool,
    ) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let walk = self
            .walk_start(root, gradient, retain_graph, Some(inputs))
            .await?;
        self.walk_to_end(walk).await
    }

    async fn walk_to_end(&mut self, mut walk: Walk) -> Result<Vec<Option<Tensor>>, RuntimeError> {
        let step = self.walk_next(&mut walk).await;
        let done = match step {
            Ok(WalkStep::Done) => Ok(()),
            Ok(WalkStep::Custom { .. }) => Err(RuntimeError::Message(
                "a torch.autograd.Function's backward needs the interpreter".into(),
            )),
            Err(e) => Err(e),
        };
        let grads = self.walk_finish(walk);
        done.map(|()| grads)
    }

    /// Starts a backward pass from `root` with `gradient` (ones for a
    /// scalar when none): `backward` when `capture` is none, else
    /// `autograd.grad` for the tensors it names. Gradient mode is off until
    /// `walk_finish`, which every started walk must reach.
    pub async fn walk_start(
        &mut self,
        root: &Tensor,
        gradient: Option<Tensor>,
        retain_graph: bool,
        capture: Option<&[Tensor]>,
    ) -> Result<Walk, RuntimeError> {
        if capture.is_none() && !root.requires_grad() {
            return Err(RuntimeError::Message(
                "element 0 of tensors does not require grad and does not have a grad_fn".into(),
            ));
        }
        let seed = match gradient {
            Some(g) => {
                if capture.is_none() && g.dims() != root.dims() {
                    return Err(RuntimeError::Message(format!(
                        "Mismatch in shape: grad_output[0] has a shape of {} and output[0] has a shape of {}.",
                        g.shape(),
                        root.shape()
                    )));
                }
                g
            }
            None => {
                if root.numel() != 1 {
                    return Err(RuntimeError::Message(
                        "grad can be implicitly created only for scalar outputs".into(),
                    ));
                }
                self.full(root.shape(), 1.0, root.dtype(), root.device())
                    .await?
            }
        };
        let capture: Option<Vec<usize>> =
            capture.map(|ts| ts.iter().map(Tensor::identity).collect());
        let grad_mode = self.set_grad_enabled(false);
        let mut walk = Walk {
            order: Vec::new().into_iter(),
            pending: HashMap::new(),
            captured: HashMap::new(),
            retain_graph,
            capture,
            grad_mode,
        };
        if walk
            .capture
            .as_ref()
            .is_some_and(|ids| ids.contains(&root.identity()))
        {
            walk.captured.insert(root.identity(), seed.clone());
        }
        let root_node = root.grad_state().grad_fn.clone();
        match root_node {
            Some(root_node) => {
                let order = topological_order(&root_node);
                // A backward through a compiled forward is a compiled
                // backward: its ops are captured and planned as one graph.
                let compiled = order.iter().find_map(|n| n.compiled);
                walk.order = order.into_iter();
                walk.pending
                    .insert(Rc::as_ptr(&root_node) as usize, Waiting::Dense(seed));
                if let (Some((function, compile)), None) = (compiled, &walk.capture)
                    && let Err(e) = self.backward_capture_begin(function, compile)
                {
                    self.walk_finish(walk);
                    return Err(e);
                }
            }
            None if walk.capture.is_none() => {
                if let Err(e) = self.accumulate_leaf(root, seed).await {
                    self.walk_finish(walk);
                    return Err(e);
                }
            }
            None => {}
        }
        Ok(walk)
    }

    /// Runs the walk's nodes in order until it is done or reaches a node
    /// whose backward the program wrote, which the caller runs and answers
    /// with `walk_deliver`. Without `capture`, gradients accumulate into
    /// the leaves' (and retaining tensors') `.grad`; with it, only the
    /// gradients reaching the captured tensors are collected.
    pub async fn walk_next(&mut self, walk: &mut Walk) -> Result<WalkStep, RuntimeError> {
        while let Some(node) = walk.order.next() {
            let key = Rc::as_ptr(&node) as usize;
            let Some(waiting) = walk.pending.remove(&key) else {
                continue;
            };
            let grad = self.settle(waiting).await?;
            if node.released.get() && node.saves {
                return Err(RuntimeError::Message(SECOND_BACKWARD.into()));
            }
            // Taken out for the computation, put back unless the graph is freed.
            let Some(f) = node.grad_fn.borrow_mut().take() else {
                return Err(RuntimeError::Message(SECOND_BACKWARD.into()));
            };
            if let GradFn::Custom { payload, .. } = &f {
                let payload = payload.clone();
                if walk.retain_graph {
                    *node.grad_fn.borrow_mut() = Some(f);
                } else {
                    node.released.set(true);
                }
                return Ok(WalkStep::Custom {
                    node,
                    payload,
                    grad,
                });
            }
            let inputs = node.inputs.borrow().clone();
            if let Err(e) = check_versions(&node, &f, &inputs) {
                *node.grad_fn.borrow_mut() = Some(f);
                return Err(e);
            }
            // A slice's or a selection's gradient waits as a part of its
            // input's (`waiting.rs`).
            let part = match &f {
                GradFn::Slice {
                    shape,
                    axis,
                    start,
                    step: 1,
                } if sends_parts(walk, &node, &grad) => Some((shape.clone(), *axis, *start)),
                GradFn::Select { shape, axis, index } if sends_parts(walk, &node, &grad) => {
                    Some((shape.clone(), *axis, *index))
                }
                _ => None,
            };
            let grad = match (&f, &part) {
                (GradFn::Select { axis, .. }, Some(_)) => self.unsqueeze(&grad, *axis as i64)?,
                _ => grad,
            };
            let grads = match part {
                Some(_) => Ok(Vec::new()),
                None => self.input_grads(&f, &grad, &inputs).await,
            };
            if walk.retain_graph || !node.saves {
                *node.grad_fn.borrow_mut() = Some(f);
            }
            let grads = grads?;
            if !walk.retain_graph {
                node.released.set(true);
            }
            match part {
                Some((shape, axis, start)) => {
                    let parts = vec![(start, grad)];
                    let g = Waiting::Parts { shape, axis, parts };
                    self.send_waiting(walk, &node, g).await?;
                }
                None => {
                    // Released before the gradients move on, so that one passed
                    // through unchanged (or as a view) is not mistaken for shared.
                    drop(grad);
                    self.send_grads(walk, &node, grads).await?;
                }
            }
            if node.saves && !walk.retain_graph {
                // A second backward stops here with PyTorch's error.
                node.inputs.borrow_mut().clear();
                node.edges.borrow_mut().clear();
            }
        }
        self.backward_capture_end().await?;
        Ok(WalkStep::Done)
    }

    /// The input gradients of a node the caller ran (`WalkStep::Custom`),
    /// one per input of the node, checked as PyTorch checks what a
    /// `Function`'s backward returned.
    pub async fn walk_deliver(
        &mut self,
        walk: &mut Walk,
        node: &Rc<Node>,
        grads: Vec<Option<Tensor>>,
    ) -> Result<(), RuntimeError> {
        for (i, (input, g)) in node.inputs.borrow().iter().zip(&grads).enumerate() {
            if let (Some(input), Some(g)) = (input, g)
                && g.dims() != input.dims()
            {
                return Err(RuntimeError::Message(format!(
                    "Function {} returned an invalid gradient at index {i} - got {:?} but expected shape compatible with {:?}",
                    node.name(),
                    g.dims(),
                    input.dims()
                )));
            }
        }
        self.send_grads(walk, node, grads).await
    }

    /// Ends a walk: gradient mode as it was, and the captured gradients in
    /// the order `capture` named them.
    pub fn walk_finish(&mut self, mut walk: Walk) -> Vec<Option<Tensor>> {
        // A walk that ended early (an error) leaves no backward capture.
        self.backward_capture_abort();
        self.set_grad_enabled(walk.grad_mode);
        walk.capture
            .take()
            .unwrap_or_default()
            .iter()
            .map(|id| walk.captured.remove(id))
            .collect()
    }

    /// Hands each of `node`'s input gradients on: summed into the pending
    /// gradient of the node that made the input, or into a leaf's `.grad`.
    async fn send_grads(
        &mut self,
        walk: &mut Walk,
        node: &Node,
        grads: Vec<Option<Tensor>>,
    ) -> Result<(), RuntimeError> {
        let inputs = node.inputs.borrow().clone();
        let edges = node.edges.borrow().clone();
        for ((input, g), edge) in inputs.iter().zip(grads).zip(edges) {
            let (Some(input), Some(g)) = (input, g) else {
                continue;
            };
            let g = if g.dtype() != input.dtype() {
                self.cast(&g, input.dtype()).await?
            } else {
                g
            };
            if let Some(ids) = &walk.capture {
                let id = input.identity();
                if ids.contains(&id) {
                    let sum = match walk.captured.remove(&id) {
                        Some(prev) => self.binary(BinaryOp::Add, &prev, &g).await?,
                        None => g.clone(),
                    };
                    walk.captured.insert(id, sum);
                }
            }
            match edge {
                Some(child) => {
                    if walk.capture.is_none() && input.grad_state().retains_grad {
                        self.accumulate_leaf(input, g.clone()).await?;
                    }
                    let ckey = Rc::as_ptr(&child) as usize;
                    let waiting = walk.pending.remove(&ckey);
                    let sum = self.add_waiting(waiting, Waiting::Dense(g)).await?;
                    walk.pending.insert(ckey, sum);
                }
                None if walk.capture.is_none() => self.accumulate_leaf(input, g).await?,
                None => {}
            }
        }
        Ok(())
    }

    /// Records a node whose backward the program wrote on `out`, with the
    /// `Function`'s tensor inputs; `payload` is what the interpreter calls
    /// when the walk reaches it.
    pub fn record_custom(
        &self,
        out: &Tensor,
        inputs: &[&Tensor],
        name: String,
        payload: Rc<dyn std::any::Any>,
    ) {
        self.record(out, GradFn::Custom { name, payload }, inputs);
    }

    async fn accumulate_leaf(&mut self, leaf: &Tensor, g: Tensor) -> Result<(), RuntimeError> {
        let g = if g.is_dense() {
            g
        } else {
            self.dense(&g).await?
        };
        let total = match leaf.grad() {
            Some(prev) => self.binary(BinaryOp::Add, &prev, &g).await?,
            // A fresh tensor: the gradient must not share storage with another.
            None if g.shares_storage_with_any() => self.clone_tensor(&g).await?,
            None => g,
        };
        self.capture_gradient(leaf, &total);
        leaf.set_grad(Some(total));
        // When this gradient became ready, in this rank's op stream: where
        // DDP's bucket all-reduce for it can start (`dist_collective`).
        self.grad_ready.insert(leaf.identity(), self.ops.len());
        Ok(())
    }
}

/// PyTorch's check before a node's backward runs: each tensor it reads is
/// still at the version it was saved at.
fn check_versions(node: &Node, f: &GradFn, inputs: &[Option<Tensor>]) -> Result<(), RuntimeError> {
    let wants: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    for (t, (saved, is_output)) in f.reads(&wants).iter().zip(&node.saved_versions) {
        let now = t.version();
        if now != *saved {
            let dims: Vec<String> = t.dims().iter().map(|d| d.to_string()).collect();
            // As PyTorch names it: a saved output by the node that saved
            // it, an input by the node that now makes its tensor.
            let name = if *is_output {
                Some(node.name())
            } else {
                t.grad_state().grad_fn.as_ref().map(|n| n.name())
            };
            let made_by = match name {
                Some(name) => format!(
                    ", which is output 0 of {},",
                    name.trim_end_matches(char::is_numeric)
                        .trim_end_matches("Backward")
                ),
                None => String::new(),
            };
            return Err(RuntimeError::Message(format!(
                "one of the variables needed for gradient computation has been modified by an inplace operation: [torch.{}Tensor [{}]]{made_by} is at version {now}; expected version {saved} instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                crate::scalar_type_name(t.dtype()),
                dims.join(", ")
            )));
        }
    }
    Ok(())
}

/// Nodes reachable from `root`, each after every node that feeds it a
/// gradient, in the order PyTorch's engine runs them: of the nodes whose
/// gradient is complete, the latest made first (its ready queue is ordered
/// by `sequence_nr`). So a weight used through a transposed view (every
/// `nn.Linear`) gets its gradient right after its layer's product, which is
/// what lets DDP's first bucket start while backward goes on. Iterative, so
/// long chains cannot overflow the stack.
fn topological_order(root: &Rc<Node>) -> Vec<Rc<Node>> {
    let key = |n: &Rc<Node>| Rc::as_ptr(n) as usize;
    let children =
        |n: &Rc<Node>| -> Vec<Rc<Node>> { n.edges.borrow().iter().flatten().cloned().collect() };
    // How many edges lead into each reachable node.
    let mut waiting: HashMap<usize, usize> = HashMap::new();
    let mut seen: HashMap<usize, ()> = HashMap::new();
    let mut stack = vec![root.clone()];
    seen.insert(key(root), ());
    while let Some(node) = stack.pop() {
        for child in children(&node) {
            *waiting.entry(key(&child)).or_default() += 1;
            if seen.insert(key(&child), ()).is_none() {
                stack.push(child);
            }
        }
    }
    let mut ready = std::collections::BinaryHeap::new();
    let mut nodes: HashMap<u64, Rc<Node>> = HashMap::new();
    ready.push(root.seq);
    nodes.insert(root.seq, root.clone());
    let mut order = Vec::new();
    while let Some(seq) = ready.pop() {
        let node = nodes.remove(&seq).expect("queued nodes are kept");
        for child in children(&node) {
            let left = waiting.get_mut(&key(&child)).expect("counted above");
            *left -= 1;
            if *left == 0 {
                ready.push(child.seq);
                nodes.insert(child.seq, child);
            }
        }
        order.push(node);
    }
    order
}
