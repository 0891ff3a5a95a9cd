//! Float32's edges (±inf, NaN, ±0, huge and tiny magnitudes, a denormal,
//! saturating arguments) through every per-op kernel and fused kernel on a
//! native adapter (lavapipe under `TPU_REQUIRE_GPU=1`), against the
//! reference: `tpu_wgpu::edge_values` holds the vectors and the rule, which
//! the browser test in `tpu-wasm` (`tests/edge_values.rs`) runs on WebGPU too.

use pollster::block_on;
use tpu_wgpu::edge_values::edge_value_disagreements;

#[test]
#[cfg_attr(
    not(tpu_gpu),
    ignore = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored"
)]
fn every_kernel_gives_pytorchs_results_at_the_edges() {
    let gpu = block_on(tpu_wgpu::wgpu_for_tests());
    let failures = block_on(edge_value_disagreements(gpu));
    assert!(
        failures.is_empty(),
        "{} disagreements at the edges:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
