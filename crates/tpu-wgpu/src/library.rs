//! The precompiled kernel library (TorchTPU's roadmap: a fast first step).
//! A kernel's WGSL depends on what it computes and on ranks, never on sizes
//! (sizes are `params`), so a pipeline compiled once serves its pattern at
//! every size; pipelines are keyed by their source. The library is the
//! common per-op kernels plus the fused kernels that
//! `library/library.py` (an MLP with cross-entropy and AdamW, a regression
//! with SGD and Adam, softmax and layer norm, forward and backward), `tpu
//! bench`'s transformer block and the page's one-rank examples make in Fused mode, kept
//! in `library/library.wgsl` and
//! checked against what the planner makes now (`tpu-cli`'s `library`
//! test). The backend compiles it in the background as it starts: natively
//! on a thread of its own, in the browser a few kernels at a time while the
//! worker is idle (`WgpuBackend::precompile`).

use crate::kernels;
use tpu_ir::{BinaryOp, Op, ReduceOp, UnaryOp};

/// The fused kernels' WGSL, each after a `SEPARATOR` line.
const FUSED: &str = include_str!("../library/library.wgsl");

/// The line before each kernel in `library.wgsl`.
pub const SEPARATOR: &str = "// ---- library kernel ----\n";

/// The name a fused kernel's pipeline is kept under: its source's
/// fingerprint, so the same pattern at another size finds it.
pub fn fused_name(source: &str) -> String {
    format!("fused_{}", tpu_ir::fingerprint(source))
}

/// The library: `(pipeline name, WGSL)` per kernel, per-op kernels first.
pub fn kernels() -> Vec<(String, String)> {
    let mut ops = vec![Op::Fill { value: 0.0 }, Op::SumAll];
    let binary = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Pow,
        BinaryOp::Maximum,
    ];
    for op in binary {
        ops.push(Op::Binary { op });
        for scalar_on_left in [false, true] {
            ops.push(Op::BinaryScalar {
                op,
                scalar: 1.0,
                scalar_on_left,
            });
        }
    }
    let unary = [
        UnaryOp::Neg,
        UnaryOp::Abs,
        UnaryOp::Relu,
        UnaryOp::Exp,
        UnaryOp::Log,
        UnaryOp::Sqrt,
        UnaryOp::Tanh,
        UnaryOp::Sigmoid,
        UnaryOp::Erf,
    ];
    ops.extend(unary.map(|op| Op::Unary { op }));
    for op in [ReduceOp::Sum, ReduceOp::Max] {
        ops.push(Op::Reduce { op, axis: 0 });
    }
    for (transpose_a, transpose_b) in [(false, false), (true, false), (false, true)] {
        ops.push(Op::MatMul {
            transpose_a,
            transpose_b,
        });
    }
    ops.push(Op::Strided {
        offset: 0,
        strides: vec![1],
    });
    // Convolutions' and pooling's padding and their window gradients.
    ops.push(Op::Pad {
        before: vec![0],
        after: vec![0],
        value: 0.0,
    });
    ops.push(Op::UnfoldBackward {
        axis: 0,
        size: 1,
        step: 1,
    });
    let mut out: Vec<(String, String)> = ops
        .iter()
        .map(|op| (op.kernel_name(), kernels::source(op)))
        .collect();
    out.extend(
        FUSED
            .split(SEPARATOR)
            .filter(|s| !s.trim().is_empty())
            .map(|s| (fused_name(s), s.to_string())),
    );
    out
}

/// A compute pipeline from WGSL `source`, with entry point `main`.
pub(crate) fn compile(
    device: &wgpu::Device,
    name: &str,
    source: &str,
    cache: Option<&wgpu::PipelineCache>,
) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(name),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(name),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache,
    })
}

/// The library while it compiles in the background: a queue that the
/// compiling thread (natively) or `WgpuBackend::precompile` (in the
/// browser) takes kernels from, and the pipelines done. A run that needs a
/// kernel still queued takes it out and compiles it itself, so nothing is
/// compiled twice and a run never waits behind the library.
pub(crate) struct Precompiler {
    queue: std::collections::VecDeque<(String, String)>,
    /// Taken from the queue, not yet done.
    compiling: usize,
    done: std::collections::HashMap<String, wgpu::ComputePipeline>,
}

pub(crate) type SharedPrecompiler = std::sync::Arc<std::sync::Mutex<Precompiler>>;

impl Precompiler {
    pub(crate) fn start() -> SharedPrecompiler {
        std::sync::Arc::new(std::sync::Mutex::new(Precompiler {
            queue: kernels().into(),
            compiling: 0,
            done: std::collections::HashMap::new(),
        }))
    }
}

fn lock(shared: &SharedPrecompiler) -> std::sync::MutexGuard<'_, Precompiler> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The next kernel to compile in the background, if any remain.
pub(crate) fn next(shared: &SharedPrecompiler) -> Option<(String, String)> {
    let mut library = lock(shared);
    let next = library.queue.pop_front();
    library.compiling += usize::from(next.is_some());
    next
}

pub(crate) fn finish(shared: &SharedPrecompiler, name: String, pipeline: wgpu::ComputePipeline) {
    let mut library = lock(shared);
    library.compiling -= 1;
    library.done.insert(name, pipeline);
}

/// For a run about to compile `name`: the library's pipeline if it is
/// done; else `None`, and `name` leaves the queue (the run compiles it).
pub(crate) fn claim(shared: &SharedPrecompiler, name: &str) -> Option<wgpu::ComputePipeline> {
    let mut library = lock(shared);
    if let Some(pipeline) = library.done.remove(name) {
        return Some(pipeline);
    }
    library.queue.retain(|(queued, _)| queued != name);
    None
}

/// Empties the queue: the thread stops after the kernel it is compiling.
pub(crate) fn stop(shared: &SharedPrecompiler) {
    lock(shared).queue.clear();
}

/// How many kernels are still queued or compiling.
pub(crate) fn remaining(shared: &SharedPrecompiler) -> usize {
    let library = lock(shared);
    library.queue.len() + library.compiling
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_library_kernel_parses_and_validates_as_wgsl() {
        let kernels = super::kernels();
        assert!(kernels.len() > 40, "{} kernels", kernels.len());
        for (_, source) in kernels {
            crate::codegen::tests::validate(&source);
        }
    }
}
