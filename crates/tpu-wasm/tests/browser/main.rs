//! The browser tests that are not the corpus, in one test binary: each binary
//! is a wasm link, a wasm-bindgen pass and a Chromium start of its own, so the
//! page API (`page_api`), runs of several ranks (`distributed`), float32 edges
//! on WebGPU (`edge_values`), `run`'s options (`run_options`) and the speed
//! figures (`speed`) share one. Runs in headless Chromium through
//! `wasm-pack test --headless --chrome`; the corpora run in `tests/corpus.rs`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

mod distributed;
mod edge_values;
mod page_api;
mod run_options;
mod speed;
