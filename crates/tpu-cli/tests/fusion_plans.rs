//! Snapshots of what Fused mode makes of the benchmark programs (at toy sizes):
//! the fusion plan (each kernel and the ops it computes, for the last training
//! step) and the WGSL of the largest fused kernel. A change to fusion shows up
//! here as a reviewable diff; `UPDATE_EXPECT=1` rewrites them.

use expect_test::expect_file;
use tpu_lang::RunOptions;
use tpu_runtime::{EagerMode, Report, Runtime};

fn fused_report(source: &str) -> Option<Report> {
    let backend = match pollster::block_on(tpu_wgpu::WgpuBackend::new()) {
        Ok(b) => b,
        Err(_) => {
            assert!(
                std::env::var_os("TPU_REQUIRE_GPU").is_none(),
                "TPU_REQUIRE_GPU is set but no adapter was found"
            );
            return None;
        }
    };
    let source = source.to_string();
    std::thread::Builder::new()
        .stack_size(tpu_lang::NATIVE_STACK_BYTES)
        .spawn(move || {
            let mut runtime = Runtime::new(Box::new(backend));
            let options = RunOptions {
                mode: EagerMode::Fused,
                ..RunOptions::default()
            };
            let report = pollster::block_on(tpu_lang::run(&source, &mut runtime, &options));
            assert!(report.ok(), "{:?}", report.diagnostics);
            Some(report)
        })
        .unwrap()
        .join()
        .unwrap()
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
    format!("STEPS = 2\n{prelude}{body}")
}

#[test]
fn mlp_training_step() {
    let source = program(
        "BATCH = 8\nD_IN = 16\nD_HIDDEN = 32\n",
        include_str!("../src/bench/mlp.py"),
    );
    let Some(report) = fused_report(&source) else {
        return;
    };
    expect_file!["snapshots/mlp_plan.txt"].assert_eq(&plan(&report));
    expect_file!["snapshots/mlp_largest.wgsl"].assert_eq(&largest_wgsl(&report));
}

#[test]
fn transformer_block_forward_and_backward() {
    let source = program(
        "BATCH = 2\nTOKENS = 8\nWIDTH = 16\nHEADS = 4\n",
        include_str!("../src/bench/transformer.py"),
    );
    let Some(report) = fused_report(&source) else {
        return;
    };
    expect_file!["snapshots/attention_plan.txt"].assert_eq(&plan(&report));
    expect_file!["snapshots/attention_largest.wgsl"].assert_eq(&largest_wgsl(&report));
}
