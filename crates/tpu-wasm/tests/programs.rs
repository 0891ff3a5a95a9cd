//! The project's own corpus (`tests/programs/`, listed by `build.rs`) in headless
//! Chromium through the wasm package: every program with what real PyTorch
//! printed, on the reference backend in each eager mode and on WebGPU
//! (SwiftShader on CI) in Fused mode, whose generated kernels are the ones the
//! browser compiles, checked with the corpus rule. Natively the same corpus runs
//! in every mode on both backends (`crates/tpu-cli/tests/programs.rs`).
#![cfg(target_arch = "wasm32")]

use tpu_runtime::Report;
use tpu_wasm::Playground;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Name, program and what PyTorch printed, for every corpus program.
const PROGRAMS: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/programs.rs"));

async fn run_in(playground: &Playground, source: &str, mode: &str) -> Report {
    let value = JsFuture::from(playground.run(source.to_string(), Some(mode.into()), None))
        .await
        .expect("the run resolves");
    serde_wasm_bindgen::from_value(value).expect("a Report")
}

async fn programs_agree_on(backend: &str, modes: &[&str]) {
    assert!(
        PROGRAMS.len() >= 100,
        "the corpus has {} programs",
        PROGRAMS.len()
    );
    let playground = Playground::create(Some(backend.into()))
        .await
        .expect("the backend starts");
    let mut failures = Vec::new();
    for mode in modes {
        for (name, source, expected) in PROGRAMS {
            let report = run_in(&playground, source, mode).await;
            if !report.ok() {
                let why = report.diagnostics.first().map(|d| d.traceback.clone());
                failures.push(format!("{name} in {mode}: {why:?}"));
            } else if let Err(why) = tpu_lang::conformance::agree(expected, &report.stdout) {
                failures.push(format!("{name} in {mode}: {why}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "on {backend}:\n{}",
        failures.join("\n")
    );
}

#[wasm_bindgen_test]
async fn the_corpus_agrees_with_pytorch_on_the_reference_backend_in_every_mode() {
    programs_agree_on("cpu", &["debug", "strict", "fused"]).await;
}

#[wasm_bindgen_test]
async fn the_corpus_agrees_with_pytorch_fused_on_webgpu() {
    programs_agree_on("wgpu", &["fused"]).await;
}
