//! Snapshots of what Fused mode makes of the benchmark programs (at toy sizes):
//! the fusion plan (each kernel and the ops it computes, for the last training
//! step) and the WGSL of the largest fused kernel. A change to fusion shows up
//! here as a reviewable diff; `UPDATE_EXPECT=1` rewrites them.
//!
//! Plans do not depend on the backend (fusion wraps any backend), and the WGSL
//! of a fused kernel is generated from the plan alone, so both snapshots run
//! on the reference backend, always: `WgslOfReference` runs each group on the
//! reference and records the WGSL wgpu would compile for it. Where an adapter
//! exists, the same programs also run on wgpu and must give the same WGSL.

use expect_test::expect_file;
use tpu_ir::{DType, FusedKernel, Op, Shape};
use tpu_lang::RunOptions;
use tpu_runtime::{
    Backend, BackendError, BackendKind, BufferId, Dispatched, FusedDispatch, HostData, Operand,
    ReadFuture, ReferenceBackend,
};
use tpu_runtime::{EagerMode, Report, Runtime};

/// The reference backend, with each fused kernel's source replaced by the
/// WGSL the wgpu backend generates for it.
struct WgslOfReference(ReferenceBackend);

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

    fn execute_fused(
        &mut self,
        kernel: &FusedKernel,
        inputs: &[BufferId],
    ) -> Result<FusedDispatch, BackendError> {
        let done = self.0.execute_fused(kernel, inputs)?;
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
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(backend);
            let options = RunOptions {
                mode: EagerMode::Fused,
                ..RunOptions::default()
            };
            let report = pollster::block_on(tpu_lang::run(&source, &mut runtime, &options));
            assert!(report.ok(), "{:?}", report.diagnostics);
            report
        })
        .unwrap()
        .join()
        .unwrap()
}

/// The plan and largest WGSL of `source`, from the reference backend; the
/// WGSL from wgpu too, where there is an adapter, which must agree.
fn plan_and_wgsl(source: &str) -> (String, String) {
    let reference = fused_report(source, Box::new(WgslOfReference(ReferenceBackend::new())));
    let (plan_text, wgsl) = (plan(&reference), largest_wgsl(&reference));
    if let Some(gpu) = pollster::block_on(tpu_wgpu::wgpu_for_tests()) {
        // The plans themselves may differ: ops wgpu has no kernel for (bool
        // masks, `where`) run on the host there, outside the fused graph.
        let on_gpu = fused_report(source, Box::new(gpu));
        assert_eq!(largest_wgsl(&on_gpu), wgsl, "wgpu generated other WGSL");
    }
    (plan_text, wgsl)
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
            let name = if k.source.is_some() {
                "fused"
            } else {
                k.name.as_str()
            };
            format!("{name:<14} {}\n", ops.join(" "))
        })
        .collect()
}

fn largest_wgsl(report: &Report) -> String {
    report
        .kernels
        .iter()
        .filter(|k| k.source.is_some())
        .max_by_key(|k| k.ops.len())
        .and_then(|k| k.source.clone())
        .unwrap_or_default()
}

fn program(prelude: &str, body: &str) -> String {
    format!("STEPS = 2\nCOMPILED = False\n{prelude}{body}")
}

#[test]
fn mlp_training_step() {
    let source = program(
        "BATCH = 8\nD_IN = 16\nD_HIDDEN = 32\n",
        include_str!("../src/bench/mlp.py"),
    );
    let (plan, wgsl) = plan_and_wgsl(&source);
    expect_file!["snapshots/mlp_plan.txt"].assert_eq(&plan);
    expect_file!["snapshots/mlp_largest.wgsl"].assert_eq(&wgsl);
}

#[test]
fn transformer_block_forward_and_backward() {
    let source = program(
        "BATCH = 2\nTOKENS = 8\nWIDTH = 16\nHEADS = 4\n",
        include_str!("../src/bench/transformer.py"),
    );
    let (plan, wgsl) = plan_and_wgsl(&source);
    expect_file!["snapshots/attention_plan.txt"].assert_eq(&plan);
    expect_file!["snapshots/attention_largest.wgsl"].assert_eq(&wgsl);
}

/// The precompiled library's fused kernels (`tpu-wgpu/library/`) are the
/// WGSL the planner makes now of `library.py` and of the page's one-rank
/// examples, each once, in the order they first run: a change to fusion or
/// codegen that the library misses fails here (`UPDATE_EXPECT=1`
/// regenerates it).
#[test]
fn the_precompiled_library_is_what_fused_mode_makes_of_its_programs() {
    let transformer = program(
        "BATCH = 2\nTOKENS = 4\nWIDTH = 16\nHEADS = 2\n",
        include_str!("../src/bench/transformer.py"),
    );
    let programs = [
        include_str!("../../tpu-wgpu/library/library.py"),
        &transformer,
        include_str!("../../../www/src/examples/hello.py"),
        include_str!("../../../www/src/examples/mlp.py"),
        include_str!("../../../www/src/examples/attention.py"),
        include_str!("../../../www/src/examples/fusion.py"),
        include_str!("../../../www/src/examples/mxu.py"),
        include_str!("../../../www/src/examples/cnn.py"),
        include_str!("../../../www/src/examples/compile.py"),
    ];
    let mut kernels: Vec<String> = Vec::new();
    for program in programs {
        let report = fused_report(program, Box::new(WgslOfReference(ReferenceBackend::new())));
        for source in report.kernels.iter().filter_map(|k| k.source.as_ref()) {
            if !kernels.contains(source) {
                kernels.push(source.clone());
            }
        }
    }
    assert!(kernels.len() > 20, "{} fused kernels", kernels.len());
    let text: String = kernels
        .iter()
        .map(|k| format!("{}{k}", tpu_wgpu::library::SEPARATOR))
        .collect();
    expect_file!["../../tpu-wgpu/library/library.wgsl"].assert_eq(&text);
}

/// Once the library has compiled (here natively, on its thread), the first
/// Fused run of a page example finds each of its fused kernels compiled:
/// every fused kernel's first launch is counted as precompiled, where a
/// backend without the library counts none.
#[test]
fn a_run_after_the_library_compiled_finds_its_fused_kernels_precompiled() {
    let example = include_str!("../../../www/src/examples/attention.py");
    let first_launches = |library: bool| {
        let mut gpu = pollster::block_on(tpu_wgpu::wgpu_for_tests())?;
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
            .filter(|k| k.source.is_some())
            .filter_map(|k| k.fingerprint.as_deref())
            .collect();
        Some((fused.len() as u64, report.cache.precompiled))
    };
    let Some((fused, precompiled)) = first_launches(true) else {
        return;
    };
    assert!(fused > 0);
    assert!(
        precompiled >= fused,
        "{precompiled} precompiled of {fused} fused kernels"
    );
    assert_eq!(first_launches(false).map(|(_, p)| p), Some(0));
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
