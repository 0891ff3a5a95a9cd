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
