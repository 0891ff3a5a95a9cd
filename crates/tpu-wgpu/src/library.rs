//! The precompiled kernel library (TorchTPU's roadmap: a fast first step).
//! A kernel's WGSL depends on what it computes and on ranks, never on sizes
//! (sizes are `params`), so a pipeline compiled once serves its pattern at
//! every size; pipelines are keyed by their source. The library is the
//! common per-op kernels (a classifier's integer ones among them) plus the
//! fused kernels that the workloads in
//! `library/workloads/` make in Fused mode (an MLP with cross-entropy and
//! AdamW, a regression with SGD and Adam, softmax and layer norm, forward and
//! backward; copies of `tpu bench`'s transformer block and of the page's
//! one-rank examples). The fused kernels are kept as their IR, one
//! `FusedKernel` as JSON per line of `library/kernels.jsonl`, and their WGSL
//! is generated here by the same codegen as a run's, so a codegen change
//! needs no regenerated file; `tpu-cli`'s `library` test fails when the IR is
//! not what the planner makes now of the workloads. The backend compiles the
//! library in the background as it starts (`Library::start`): natively on a
//! thread of its own, in the browser a few kernels at a time while the
//! worker is idle (`WgpuBackend::precompile`).

use crate::codegen;
use crate::kernels::{self, MatmulKernel};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tpu_ir::{BinaryOp, FusedKernel, Op, ReduceOp, UnaryOp};

/// The fused kernels' IR: one `FusedKernel` as JSON per line.
const FUSED: &str = include_str!("../library/kernels.jsonl");

/// The library's fused kernels, as the planner made them of the workloads.
pub fn fused_kernels() -> Vec<FusedKernel> {
    FUSED
        .lines()
        .map(|line| serde_json::from_str(line).expect("library/kernels.jsonl holds FusedKernels"))
        .collect()
}

/// `kernels` as `library/kernels.jsonl` keeps them: one JSON line each.
pub fn fused_text(kernels: &[FusedKernel]) -> String {
    kernels
        .iter()
        .map(|k| serde_json::to_string(k).expect("a FusedKernel serialises") + "\n")
        .collect()
}

/// The name a fused kernel's pipeline is kept under: its source's
/// fingerprint, so the same pattern at another size finds it.
pub fn fused_name(source: &str) -> String {
    format!("fused_{}", tpu_ir::fingerprint(source))
}

/// The library: `(pipeline name, WGSL)` per kernel, per-op kernels first,
/// with matmuls on `matmul`'s kernel.
pub fn kernels(matmul: MatmulKernel) -> Vec<(String, String)> {
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
    ops.extend((2..=3).map(|parts| Op::Concat { axis: 0, parts }));
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
        .map(|op| {
            let variant = kernels::Variant::float(matmul);
            (
                kernels::pipeline_name(op, variant),
                kernels::source_with(op, variant),
            )
        })
        .collect();
    out.extend(integer_kernels(matmul).into_iter().map(|(op, variant)| {
        (
            kernels::pipeline_name(&op, variant),
            kernels::source_with(&op, variant),
        )
    }));
    out.extend(fused_kernels().iter().map(|kernel| {
        let source = codegen::fused_with(kernel, matmul);
        (fused_name(&source), source)
    }));
    out
}

/// The integer and mask kernels every classifier's training and accuracy
/// use: cross-entropy's targets (`ne` with the ignored index, `eq` with an
/// `arange`, the scatter of its gradient), `argmax`, indexing, `%`, `all`.
fn integer_kernels(matmul: MatmulKernel) -> Vec<(Op, kernels::Variant)> {
    use tpu_ir::CompareOp::{Eq, Ne};
    use tpu_ir::DType::{Bool, Float32, Int64};
    let of = |out, inputs: &[tpu_ir::DType]| kernels::Variant::new(matmul, out, inputs);
    let mut list = Vec::new();
    for op in [Ne, Eq] {
        list.push((Op::CompareScalar { op, scalar: 0.0 }, of(Bool, &[Int64])));
    }
    list.extend([
        (Op::Compare { op: Eq }, of(Bool, &[Int64, Int64])),
        (
            Op::Arange {
                start: tpu_ir::IntOrFloat::Int(0),
                step: tpu_ir::IntOrFloat::Int(1),
            },
            of(Int64, &[]),
        ),
        (
            Op::Reduce {
                op: ReduceOp::ArgMax,
                axis: 0,
            },
            of(Int64, &[Float32]),
        ),
        (
            Op::Reduce {
                op: ReduceOp::Min,
                axis: 0,
            },
            of(Bool, &[Bool]),
        ),
        (Op::Cast { to: Float32 }, of(Float32, &[Bool])),
        (Op::Gather, of(Float32, &[Float32, Int64])),
        (
            Op::BinaryScalar {
                op: BinaryOp::Remainder,
                scalar: 1.0,
                scalar_on_left: false,
            },
            of(Int64, &[Int64]),
        ),
    ]);
    for accumulate in [false, true] {
        let op = Op::Scatter { accumulate };
        list.push((op, of(Float32, &[Float32, Int64, Float32])));
    }
    list
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
/// compiling thread (natively) or `Library::compile_some` (in the browser)
/// takes kernels from, and the pipelines done. A run that needs a kernel
/// still queued takes it out and compiles it itself, so nothing is compiled
/// twice and a run never waits behind the library.
struct Queue {
    kernels: VecDeque<(String, String)>,
    /// Taken from the queue, not yet done.
    compiling: usize,
    done: HashMap<String, wgpu::ComputePipeline>,
}

type SharedQueue = Arc<Mutex<Queue>>;

fn lock(shared: &SharedQueue) -> MutexGuard<'_, Queue> {
    shared
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The next kernel to compile in the background, if any remain.
fn next(shared: &SharedQueue) -> Option<(String, String)> {
    let mut queue = lock(shared);
    let next = queue.kernels.pop_front();
    queue.compiling += usize::from(next.is_some());
    next
}

fn finish(shared: &SharedQueue, name: String, pipeline: wgpu::ComputePipeline) {
    let mut queue = lock(shared);
    queue.compiling -= 1;
    queue.done.insert(name, pipeline);
}

/// The library compiling in the background, from `start` until dropped.
pub(crate) struct Library {
    queue: SharedQueue,
    /// Set by the device once the last pipeline `compile_some` created is
    /// compiled: a browser compiles a pipeline in its GPU process after
    /// `create_compute_pipeline` has returned (on SwiftShader one of the
    /// library's took seconds, while the page's frames, drawn by the same
    /// process, waited), and answers `on_submitted_work_done` only after.
    settling: Mutex<Option<Arc<AtomicBool>>>,
    /// The thread compiling the library natively, joined when the library
    /// is dropped: a thread still inside the driver while the device and
    /// the process go away crashed NVIDIA's Vulkan driver at exit.
    #[cfg(not(target_arch = "wasm32"))]
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Library {
    /// Starts compiling the library in the background: natively on a
    /// thread of its own (the device is shared), so a run starts at once and
    /// finds the pipelines done; in the browser it waits for `compile_some`,
    /// which the worker calls while idle.
    pub(crate) fn start(
        device: &wgpu::Device,
        cache: Option<&wgpu::PipelineCache>,
        matmul: MatmulKernel,
    ) -> Library {
        let queue = Arc::new(Mutex::new(Queue {
            kernels: kernels(matmul).into(),
            compiling: 0,
            done: HashMap::new(),
        }));
        #[cfg(target_arch = "wasm32")]
        let _ = (device, cache);
        #[cfg(not(target_arch = "wasm32"))]
        let thread = {
            let (device, cache, queue) = (device.clone(), cache.cloned(), queue.clone());
            // Without a thread, kernels compile when first used, as before.
            std::thread::Builder::new()
                .name("tpu-precompile".into())
                .spawn(move || {
                    while let Some((name, source)) = next(&queue) {
                        let pipeline = compile(&device, &name, &source, cache.as_ref());
                        finish(&queue, name, pipeline);
                    }
                })
                .ok()
        };
        Library {
            queue,
            settling: Mutex::new(None),
            #[cfg(not(target_arch = "wasm32"))]
            thread,
        }
    }

    /// Compiles up to `max` queued kernels here and now (the browser's
    /// idle-time step); returns how many are still queued or compiling. The
    /// kernels of the last step count as compiling until the device says it
    /// has done them, and no step compiles more before: the library is ready
    /// when it is compiled, not when it has been asked for, and a backlog
    /// never builds up in a browser's GPU process.
    pub(crate) fn compile_some(
        &self,
        device: &wgpu::Device,
        gpu: &wgpu::Queue,
        cache: Option<&wgpu::PipelineCache>,
        max: usize,
    ) -> usize {
        let mut settling = self
            .settling
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if settling.as_ref().is_some_and(|s| s.load(Ordering::Acquire)) {
            *settling = None;
        }
        if settling.is_none() {
            let mut compiled = false;
            for _ in 0..max {
                let Some((name, source)) = next(&self.queue) else {
                    break;
                };
                let pipeline = compile(device, &name, &source, cache);
                finish(&self.queue, name, pipeline);
                compiled = true;
            }
            if compiled {
                let done = Arc::new(AtomicBool::new(false));
                let set = done.clone();
                gpu.on_submitted_work_done(move || set.store(true, Ordering::Release));
                // Natively the callback runs here; in a browser, from its
                // event loop, before a later step.
                let _ = device.poll(wgpu::PollType::Poll);
                if !done.load(Ordering::Acquire) {
                    *settling = Some(done);
                }
            }
        }
        let queue = lock(&self.queue);
        queue.kernels.len() + queue.compiling + usize::from(settling.is_some())
    }

    /// For a run about to compile `name`: the library's pipeline if it is
    /// done; else `None`, and `name` leaves the queue (the run compiles it).
    pub(crate) fn claim(&self, name: &str) -> Option<wgpu::ComputePipeline> {
        let mut queue = lock(&self.queue);
        if let Some(pipeline) = queue.done.remove(name) {
            return Some(pipeline);
        }
        queue.kernels.retain(|(queued, _)| queued != name);
        None
    }
}

impl Drop for Library {
    /// Empties the queue, so the thread stops after the kernel it is
    /// compiling, and waits for it.
    fn drop(&mut self) {
        lock(&self.queue).kernels.clear();
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_library_kernel_parses_and_validates_as_wgsl() {
        for matmul in super::MatmulKernel::ALL {
            let kernels = super::kernels(matmul);
            assert!(kernels.len() > 40, "{} kernels", kernels.len());
            for (_, source) in kernels {
                crate::codegen::tests::validate(&source);
            }
        }
    }

    /// The committed IR reads back to the same text: JSON keeps every field
    /// (and every float) that codegen and `fused_name` see.
    #[test]
    fn the_library_ir_round_trips_through_its_text() {
        let kernels = super::fused_kernels();
        assert!(!kernels.is_empty());
        assert_eq!(super::fused_text(&kernels), super::FUSED);
    }
}
