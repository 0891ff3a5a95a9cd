//! Runs in headless Chromium through `wasm-pack test --headless --chrome`:
//! float32's edges through every WGSL kernel on the browser's WebGPU adapter
//! (SwiftShader on CI), against the reference, by the same vectors and rule as
//! the native test (`tpu_wgpu::edge_values`). Browsers compile WGSL with their
//! own compiler (Tint) for their own adapter, whose built-ins (`tanh`, `log`,
//! `exp`) behave differently at the edges from lavapipe's, so both must pass.

use tpu_wgpu::WgpuBackend;
use tpu_wgpu::edge_values::edge_value_disagreements;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
async fn every_kernel_gives_pytorchs_results_at_the_edges_on_webgpu() {
    let gpu = WgpuBackend::new().await.expect("WebGPU is available");
    let failures = edge_value_disagreements(gpu).await;
    assert!(
        failures.is_empty(),
        "{} disagreements at the edges:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
