//! The conformance corpus (`tests/conformance/` and its `cnn/`: PyTorch programs and what PyTorch
//! 2.15 printed) through `tpu run`, on each backend and in each eager mode, judged
//! by the corpus's rule.
//! Every program must agree; the browser runs the same corpus through the wasm
//! package (`crates/tpu-wasm/tests/browser.rs`).

mod compile;
mod distributed;
mod pallas;
mod support;

fn check_backend(backend: &str) {
    let mut problems = Vec::new();
    for mode in support::MODES {
        let outcomes =
            support::run_corpus(&support::corpus_dir("tests/conformance"), backend, mode);
        assert!(outcomes.len() >= 11, "the corpus went missing");
        let cnn = support::run_corpus(&support::corpus_dir("tests/conformance/cnn"), backend, mode);
        assert!(!cnn.is_empty(), "the cnn corpus went missing");
        problems.extend(outcomes.into_iter().filter_map(|o| {
            o.verdict
                .err()
                .map(|why| format!("{} on {backend} in {mode}: {why}", o.name))
        }));
        problems.extend(cnn.into_iter().filter_map(|o| {
            o.verdict
                .err()
                .map(|why| format!("cnn/{} on {backend} in {mode}: {why}", o.name))
        }));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn corpus_on_the_reference_backend() {
    check_backend("cpu");
}

#[test]
fn corpus_on_the_wgpu_backend() {
    if !support::wgpu_available() {
        return;
    }
    check_backend("wgpu");
}
