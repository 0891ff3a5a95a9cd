//! The project's own corpus (`tests/programs/`: PyTorch programs with what real
//! PyTorch printed for them, device changed to "cpu") through `tpu run` on both
//! backends, in each eager mode. Every program with an `.expected` file must agree.
//! The page's examples (`www/src/examples/`) are held to the same rule.

mod support;

fn check(backend: &str) {
    let mut failures = Vec::new();
    for mode in support::MODES {
        let mut outcomes =
            support::run_corpus(&support::corpus_dir("tests/programs"), backend, mode);
        assert!(!outcomes.is_empty(), "no programs with .expected files");
        let examples = support::run_corpus(&support::corpus_dir("www/src/examples"), backend, mode);
        assert!(examples.len() >= 3, "the page's examples are missing");
        outcomes.extend(examples);
        failures.extend(outcomes.iter().filter_map(|o| {
            o.verdict
                .as_ref()
                .err()
                .map(|why| format!("{} on {backend} in {mode}: {why}", o.name))
        }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn programs_on_the_reference_backend() {
    check("cpu");
}

#[test]
fn programs_on_the_wgpu_backend() {
    if !support::wgpu_available() {
        return;
    }
    check("wgpu");
}
