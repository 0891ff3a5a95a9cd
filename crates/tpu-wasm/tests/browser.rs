//! Runs in headless Chromium through `wasm-pack test --headless --chrome`: the
//! foundation program through the wasm API, with its kernels on WebGPU
//! (SwiftShader on CI), checked against the output PyTorch prints.
#![cfg(target_arch = "wasm32")]

use tpu_runtime::{BackendKind, Report};
use tpu_wasm::Playground;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const HELLO: &str = include_str!("../../../tests/programs/hello_tensor.py");

async fn run(playground: &Playground, source: &str) -> Report {
    let value = JsFuture::from(playground.run(source.to_string()))
        .await
        .expect("the run resolves");
    serde_wasm_bindgen::from_value(value).expect("a Report")
}

#[wasm_bindgen_test]
async fn hello_runs_its_matmul_as_a_wgsl_kernel_on_webgpu() {
    let playground = Playground::create(Some("wgpu".into()))
        .await
        .expect("WebGPU is available");
    assert_eq!(playground.backend(), "wgpu");
    let report = run(&playground, HELLO).await;
    assert!(report.ok(), "{:?}", report.diagnostics);
    assert_eq!(
        report.stdout,
        "tensor([[9., 9.],\n        [9., 9.]], device='tpu:0')\n36.0\n"
    );
    assert_eq!(report.backend, Some(BackendKind::Wgpu));
    let mm = report
        .ops
        .iter()
        .find(|op| op.name == "aten::mm")
        .expect("an mm op");
    assert_eq!(mm.backend, BackendKind::Wgpu);
    assert_eq!(mm.kernel_language, "WGSL");
    assert!(report.ops.iter().all(|op| op.backend == BackendKind::Wgpu));
}

#[wasm_bindgen_test]
async fn errors_come_back_in_the_report_with_line_and_column() {
    let playground = Playground::create(Some("cpu".into()))
        .await
        .expect("the reference backend");
    let report = run(
        &playground,
        "import torch\nx = torch.ones(2, 3)\ny = x @ x\n",
    )
    .await;
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, "RuntimeError");
    let span = d.span.expect("a span");
    assert_eq!((span.line, span.column), (3, 5));
    assert!(
        d.traceback
            .contains("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)")
    );
    // The same playground keeps working after an error.
    let report = run(&playground, "print(1 + 1)\n").await;
    assert_eq!(report.stdout, "2\n");
}
