//! Speed in Chromium (`wasm-pack test --headless --chrome`): `tpu bench`'s two
//! workloads at a quarter of its widths (an MLP training step, batch 64, 128 ->
//! 512 -> 128 with AdamW; a transformer block forward and backward, batch 2, 64
//! tokens, width 128), per step, in Strict and in Fused mode, on the wasm
//! reference backend and on WebGPU (SwiftShader on CI, a software GPU).
//! Measured as `tpu bench` measures (a run of 1 step and one of 1 + STEPS,
//! the difference per extra step, after one untimed run: Chromium compiles
//! wasm in tiers, so a first run is slower), and printed. The figures are
//! measurements, not checks, so they run only when asked for: built with
//! `TPU_MEASURE=1` (`TPU_MEASURE=1 wasm-pack test --release --headless --chrome
//! --test browser`), else they report themselves ignored, and the test command
//! does not spend its time on them (whether Strict and Fused print the same
//! is every corpus program's check). Full-size browser figures are `tpu
//! bench`'s to take.

use crate::common::Page;
use tpu_runtime::EagerMode;
use wasm_bindgen_test::*;

/// Extra steps measured on the wasm reference; on WebGPU (SwiftShader on
/// CI) one, to keep the test short.
const STEPS: usize = 2;

const WORKLOADS: [(&str, &str, &str); 2] = [
    (
        "mlp_train_step",
        "BATCH = 64\nD_IN = 128\nD_HIDDEN = 512\n",
        include_str!("../../../tpu-cli/src/bench/mlp.py"),
    ),
    (
        "transformer_block_fwd_bwd",
        "BATCH = 2\nTOKENS = 64\nWIDTH = 128\nHEADS = 4\n",
        include_str!("../../../tpu-cli/src/bench/transformer.py"),
    ),
];

/// Wall time of one run of `source` in ms (a fresh interpreter and
/// `import torch` included, the same in both runs of a pair), and what it
/// printed.
async fn timed(page: &Page, source: &str, mode: EagerMode) -> (f64, String) {
    let start = js_sys::Date::now();
    let report = page.run(source, Some(mode.name()), None).await;
    assert!(report.ok(), "{:?}", report.diagnostics);
    (js_sys::Date::now() - start, report.stdout)
}

async fn per_step(backend: &str, label: &str, steps: usize, warm_up: bool) {
    let page = Page::create(backend).await.expect("a backend");
    for (name, sizes, body) in WORKLOADS {
        let program = |steps: usize| format!("STEPS = {steps}\nCOMPILED = False\n{sizes}{body}");
        let (short, long) = (program(1), program(1 + steps));
        let mut line = format!("{name:<28} {label:<22}");
        let mut printed = Vec::new();
        for mode in [EagerMode::Strict, EagerMode::Fused] {
            // Once untimed first: the browser compiles wasm in tiers, and
            // the first run would also pay for compiling kernels.
            if warm_up {
                timed(&page, &short, mode).await;
            }
            let (a, _) = timed(&page, &short, mode).await;
            let (b, out) = timed(&page, &long, mode).await;
            line.push_str(&format!(
                " {} {:>8.1} ms/step",
                mode.name(),
                (b - a) / steps as f64
            ));
            printed.push(out);
        }
        assert_eq!(
            printed[0], printed[1],
            "{name}: Strict and Fused printed differently"
        );
        console_log!("speed: {line} (Chromium, measured wall time)");
    }
}

#[wasm_bindgen_test]
#[cfg_attr(
    not(tpu_measure),
    ignore = "a measurement for docs/performance.md, not a check: build with TPU_MEASURE=1 to take it"
)]
async fn bench_workloads_per_step_on_the_wasm_reference_backend() {
    per_step("reference", "wasm reference", STEPS, true).await;
}

#[wasm_bindgen_test]
#[cfg_attr(
    not(tpu_measure),
    ignore = "a measurement for docs/performance.md, not a check: build with TPU_MEASURE=1 to take it"
)]
async fn bench_workloads_per_step_on_webgpu() {
    per_step("wgpu", "WebGPU", 1, true).await;
}
