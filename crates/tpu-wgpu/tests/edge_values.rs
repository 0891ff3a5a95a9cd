//! Float32's edges (±inf, NaN, ±0, huge and tiny magnitudes, a denormal,
//! saturating arguments) through every per-op kernel and fused kernel on a
//! native adapter (lavapipe under `TPU_REQUIRE_GPU=1`), against the
//! reference: `tpu_wgpu::edge_values` holds the vectors and the rule, which
//! the browser test in `tpu-wasm` runs on WebGPU too.

use pollster::block_on;
use tpu_wgpu::edge_values::edge_value_disagreements;

#[test]
fn every_kernel_gives_pytorchs_results_at_the_edges() {
    let Some(gpu) = block_on(tpu_wgpu::wgpu_for_tests()) else {
        return;
    };
    let failures = block_on(edge_value_disagreements(gpu));
    assert!(
        failures.is_empty(),
        "{} disagreements at the edges:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
