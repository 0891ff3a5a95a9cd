//! The project's own corpus (`tests/programs/`: PyTorch programs with what real
//! PyTorch printed for them, device changed to "cpu") through `tpu run` on both
//! backends. Every program with an `.expected` file must agree.

mod support;

fn check(backend: &str) {
    let outcomes = support::run_corpus(&support::corpus_dir("tests/programs"), backend);
    assert!(!outcomes.is_empty(), "no programs with .expected files");
    let failures: Vec<String> = outcomes
        .iter()
        .filter_map(|o| {
            o.verdict
                .as_ref()
                .err()
                .map(|why| format!("{} on {backend}: {why}", o.name))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn programs_on_the_reference_backend() {
    check("cpu");
}

#[test]
fn programs_on_the_wgpu_backend() {
    if !support::wgpu_available() {
        eprintln!("skipping: no wgpu adapter");
        return;
    }
    check("wgpu");
}
