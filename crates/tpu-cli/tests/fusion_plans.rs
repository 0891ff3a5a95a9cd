//! Snapshots of what Fused mode makes of the benchmark programs (at toy sizes):
//! the fusion plan (each kernel and the ops it computes, for the last training
//! step) and the WGSL of the largest fused kernel. A change to fusion shows up
//! here as a reviewable diff; `UPDATE_EXPECT=1` rewrites them.
//!
//! Plans do not depend on the backend (fusion wraps any backend), and the WGSL
//! of a fused kernel is generated from the plan alone, so both snapshots run
//! on the reference backend, always: `WgslOfReference` runs each group on the
//! reference and records the WGSL wgpu would compile for it. On an adapter
//! (a test ignored without one, `build.rs`), the same programs also run on wgpu
//! and must give the same WGSL.

use expect_test::expect_file;
use std::sync::{Arc, Mutex};
use tpu_ir::{DType, FusedKernel, Op, Shape};
use tpu_runtime::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, FusedDispatch, HostData, Operand,
    ReadFuture, ReferenceBackend,
};
use tpu_runtime::{EagerMode, Report, Runtime};

/// The reference backend, with each fused kernel's source replaced by the
/// WGSL the wgpu backend generates for it; the fused kernels it runs are kept,
/// in order, in the second field (the library test reads them).
struct WgslOfReference(ReferenceBackend, Arc<Mutex<Vec<FusedKernel>>>);

impl WgslOfReference {
    fn new() -> Self {
        WgslOfReference(ReferenceBackend::new(), Arc::default())
    }
}

impl Backend for WgslOfReference {
    fn kind(&self) -> BackendKind {
        self.0.kind()
    }

    fn device_description(&self) -> String {
        self.0.device_description()
    }

    fn upload(&mut self, data: &HostData) -> Result<BufferId, BackendError> {
        self.0.upload(data)
    }

    fn execute(
        &mut self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<Dispatched, BackendError> {
        self.0.execute(op, inputs, out_shape, out_dtype)
    }

    fn check(
        &self,
        op: &Op,
        inputs: &[Operand<'_>],
        out_shape: &Shape,
        out_dtype: DType,
    ) -> Result<(), BackendError> {
        self.0.check(op, inputs, out_shape, out_dtype)
    }

    fn supports_fused(&self) -> bool {
        self.0.supports_fused()
    }

    // As the wgpu backend does: without it the plans here left masks (a
    // comparison, `where`) out of the groups the real backends make.
    fn fuses_masks(&self) -> bool {
        self.0.fuses_masks()
    }

    fn execute_fused(
        &mut self,
        kernel: &FusedKernel,
        inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        let done = self.0.execute_fused(kernel, inputs)?;
        self.1.lock().unwrap().push(kernel.clone());
        Ok(FusedDispatch {
            source: tpu_wgpu::codegen::fused(kernel),
            kernel_language: "WGSL",
            ..done
        })
    }

    fn read(&mut self, buffer: BufferId, dtype: DType, len: usize) -> ReadFuture<'_> {
        self.0.read(buffer, dtype, len)
    }

    fn free(&mut self, buffer: BufferId) {
        self.0.free(buffer)
    }

    fn live_buffers(&self) -> usize {
        self.0.live_buffers()
    }
}

/// Runs `source` in Fused mode on `backend`.
fn fused_report(source: &str, backend: Box<dyn Backend + Send>) -> Report {
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(backend);
            let options = tpu_python::Options {
                path: "plan.py".into(),
                ..tpu_python::Options::default()
            };
            let (report, _) =
                tpu_torch::run_report(&source, &mut runtime, options, EagerMode::Fused);
            assert!(report.ok(), "{:?}", report.diagnostics);
            report
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The plan and largest WGSL of `source`, from the reference backend.
fn plan_and_wgsl(source: &str) -> (String, String) {
    let reference = fused_report(source, Box::new(WgslOfReference::new()));
    (plan(&reference), largest_wgsl(&reference))
}

/// A wgpu backend on the adapter the test needs.
fn gpu() -> tpu_wgpu::WgpuBackend {
    pollster::block_on(tpu_wgpu::WgpuBackend::new())
        .unwrap_or_else(|e| panic!("this test needs a wgpu adapter: {e}"))
}

/// The kernels of the last of two steps, one line each: kernel, then its ops.
fn plan(report: &Report) -> String {
    let per_step = report.kernels.len() / 2;
    report.kernels[report.kernels.len() - per_step..]
        .iter()
        .map(|k| {
            let ops: Vec<String> = k
                .ops
                .iter()
                .map(|&i| format!("{}{:?}", report.ops[i].name, report.ops[i].output_shape))
                .collect();
            let name = if is_fused(k) {
                "fused"
            } else {
                k.name.as_str()
            };
            format!("{name:<14} {}\n", ops.join(" "))
        })
        .collect()
}

/// Whether a kernel ran a fusion group (an op kernel's first launch in a run
/// carries its source too, so the source does not say).
fn is_fused(k: &tpu_runtime::KernelRecord) -> bool {
    k.name.starts_with("fused_")
}

fn largest_wgsl(report: &Report) -> String {
    report
        .kernels
        .iter()
        .filter(|k| is_fused(k))
        .max_by_key(|k| k.ops.len())
        .and_then(|k| k.source.clone())
        .unwrap_or_default()
}

fn program(prelude: &str, body: &str) -> String {
    format!("STEPS = 2\nCOMPILED = False\n{prelude}{body}")
}

fn mlp_source() -> String {
    program(
        "BATCH = 8\nD_IN = 16\nD_HIDDEN = 32\n",
        include_str!("../src/bench/mlp.py"),
    )
}

fn transformer_source() -> String {
    program(
        "BATCH = 2\nTOKENS = 8\nWIDTH = 16\nHEADS = 4\n",
        include_str!("../src/bench/transformer.py"),
    )
}

#[test]
fn mlp_training_step() {
    let (plan, wgsl) = plan_and_wgsl(&mlp_source());
    expect_file!["snapshots/mlp_plan.txt"].assert_eq(&plan);
    expect_file!["snapshots/mlp_largest.wgsl"].assert_eq(&wgsl);
}

#[test]
fn transformer_block_forward_and_backward() {
    let (plan, wgsl) = plan_and_wgsl(&transformer_source());
    expect_file!["snapshots/attention_plan.txt"].assert_eq(&plan);
    expect_file!["snapshots/attention_largest.wgsl"].assert_eq(&wgsl);
}

/// On wgpu the largest fused kernel's WGSL is the one the reference recorded.
/// The plans themselves may differ: ops wgpu has no kernel for (bool masks,
/// `where`) run on the host there, outside the fused graph.
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn wgpu_generates_the_wgsl_the_reference_records() {
    for source in [mlp_source(), transformer_source()] {
        let (_, wgsl) = plan_and_wgsl(&source);
        // The reference records codegen's naive-matmul WGSL (`fused`); a
        // real GPU would put matmuls on the tiled kernel (`fused_with`).
        let mut backend = gpu();
        backend.set_matmul_kernel(tpu_wgpu::MatmulKernel::Naive);
        let on_gpu = fused_report(&source, Box::new(backend));
        assert_eq!(largest_wgsl(&on_gpu), wgsl, "wgpu generated other WGSL");
    }
}

/// The kernels between two reads reach the GPU's queue together: a training
/// step's many kernels make one submission per read (per sync in the
/// Report), not one each.
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn a_training_step_submits_once_per_read() {
    for source in [mlp_source(), transformer_source()] {
        let report = fused_report(&source, Box::new(gpu()));
        let reads = report.syncs.len() as u64;
        assert!(reads > 0);
        assert_eq!(report.submissions, reads, "{:?}", report.syncs);
        assert!(
            report.kernels.len() as u64 > 5 * report.submissions,
            "{} kernels in {} submissions",
            report.kernels.len(),
            report.submissions
        );
    }
}

/// The precompiled library's fused kernels (`tpu-wgpu/library/kernels.jsonl`)
/// are the IR the planner makes now of the workloads in
/// `tpu-wgpu/library/workloads/`, one per distinct WGSL, in the order they
/// first run, workload by workload in the order of their names (the
/// library's compile order): a change to fusion that the library misses fails here
/// (`UPDATE_EXPECT=1` regenerates it). The WGSL the library generates from
/// that IR is what codegen made of the same kernels during the runs, so the
/// pipelines it precompiles are the ones runs ask for.
#[test]
fn the_precompiled_library_is_what_fused_mode_makes_of_its_workloads() {
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tpu-wgpu/library/workloads");
    let mut workloads: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "py"))
        .collect();
    workloads.sort();
    assert!(workloads.len() > 1, "{workloads:?}");
    let (mut kernels, mut sources) = (Vec::new(), Vec::<String>::new());
    for path in workloads {
        let backend = WgslOfReference::new();
        let ran = backend.1.clone();
        fused_report(&std::fs::read_to_string(path).unwrap(), Box::new(backend));
        for kernel in std::mem::take(&mut *ran.lock().unwrap()) {
            let source = tpu_wgpu::codegen::fused(&kernel);
            if !sources.contains(&source) {
                sources.push(source);
                kernels.push(kernel);
            }
        }
    }
    assert!(kernels.len() > 20, "{} fused kernels", kernels.len());
    expect_file!["../../tpu-wgpu/library/kernels.jsonl"]
        .assert_eq(&tpu_wgpu::library::fused_text(&kernels));
    let library: Vec<String> = tpu_wgpu::library::kernels(tpu_wgpu::MatmulKernel::Naive)
        .into_iter()
        .filter(|(name, _)| name.starts_with("fused_"))
        .map(|(name, source)| {
            assert_eq!(name, tpu_wgpu::library::fused_name(&source));
            source
        })
        .collect();
    assert_eq!(
        library, sources,
        "the library's WGSL is not what the runs compiled"
    );
}

/// Once the library has compiled (here natively, on its thread), the first
/// Fused run of a page example finds each of its fused kernels compiled:
/// every fused kernel's first launch is counted as precompiled, where a
/// backend without the library counts none.
#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn a_run_after_the_library_compiled_finds_its_fused_kernels_precompiled() {
    let example = include_str!("../../../www/src/examples/attention.py");
    let first_launches = |library: bool| {
        let mut gpu = gpu();
        if library {
            gpu.start_precompiling();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            while gpu.precompile(0) > 0 {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the library never finished"
                );
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        let report = fused_report(example, Box::new(gpu));
        let fused: std::collections::HashSet<&str> = report
            .kernels
            .iter()
            .filter(|k| is_fused(k))
            .filter_map(|k| k.fingerprint.as_deref())
            .collect();
        (fused.len() as u64, report.cache.precompiled)
    };
    let (fused, precompiled) = first_launches(true);
    assert!(fused > 0);
    assert!(
        precompiled >= fused,
        "{precompiled} precompiled of {fused} fused kernels"
    );
    assert_eq!(first_launches(false).1, 0);
}

/// A convolution in eval mode with its batch norm and activation is one
/// kernel after the windows' padding and im2col copy: the matmul with its
/// bias, the normalisation and the ReLU as its epilogue. The simulated TPU
/// runs it as a convolution, tap by tap, and says what its channels fill.
#[test]
fn a_convolution_fuses_its_bias_batch_norm_and_activation() {
    let source = "import torch\nimport torch.nn as nn\ntorch.manual_seed(0)\n\
        m = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU()).to('tpu').eval()\n\
        with torch.no_grad():\n    y = m(torch.randn(4, 8, 10, 10, device='tpu'))\nprint(y.sum().item())\n";
    let report = fused_report(source, Box::new(ReferenceBackend::new()));
    let conv = report
        .kernels
        .iter()
        .find(|k| k.ops.iter().any(|&i| report.ops[i].name == "aten::mm"))
        .expect("the convolution's kernel");
    let names: Vec<&str> = conv
        .ops
        .iter()
        .map(|&i| report.ops[i].name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "aten::mm",
            "aten::add",
            "aten::sub",
            "aten::mul",
            "aten::mul",
            "aten::add",
            "aten::relu"
        ]
    );
    let geometry = conv.work.conv.as_ref().expect("costed as a convolution");
    assert_eq!(
        (
            geometry.taps,
            geometry.positions,
            geometry.in_channels,
            geometry.out_channels
        ),
        (9, 400, 8, 16)
    );
    let hints = &conv.cost.as_ref().unwrap().hints;
    assert!(
        hints
            .iter()
            .any(|h| h.starts_with("8 input channels fill 6%")),
        "{hints:?}"
    );
    let before: Vec<&str> = report
        .kernels
        .iter()
        .take_while(|k| !std::ptr::eq(*k, conv))
        .map(|k| k.name.as_str())
        .collect();
    // The padding and the im2col copy, then the batch norm's scale
    // (`1 / sqrt(running_var + eps)`, a kernel of its own).
    assert_eq!(before.len(), 3, "{before:?}");
    assert_eq!(before[..2], ["pad", "strided_copy"]);
}
