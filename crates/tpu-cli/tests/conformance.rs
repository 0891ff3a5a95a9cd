//! The conformance corpus (`tests/conformance/`: PyTorch programs and what PyTorch
//! 2.15 printed) through `tpu run`, on each backend, judged by the corpus's rule.
//! Every program must agree; the browser runs the same corpus through the wasm
//! package (`crates/tpu-wasm/tests/browser.rs`).

mod support;

fn check_backend(backend: &str) {
    let outcomes = support::run_corpus(&support::corpus_dir("tests/conformance"), backend);
    assert!(outcomes.len() >= 11, "the corpus went missing");
    let problems: Vec<String> = outcomes
        .into_iter()
        .filter_map(|o| {
            o.verdict
                .err()
                .map(|why| format!("{} on {backend}: {why}", o.name))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn corpus_on_the_reference_backend() {
    check_backend("cpu");
}

#[test]
fn corpus_on_the_wgpu_backend() {
    if !support::wgpu_available() {
        eprintln!("skipping: no wgpu adapter");
        return;
    }
    check_backend("wgpu");
}
