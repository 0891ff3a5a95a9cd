//! The conformance corpus (`tests/conformance/`: PyTorch programs and what PyTorch
//! 2.15 printed) through `tpu run`, on each backend, judged by the corpus's rule.
//!
//! `PASSING` lists the programs that must agree. The others are expected to fail
//! until the language issue is finished; a program that starts passing without
//! being listed fails the test too, so the list never goes stale.

mod support;

const PASSING: &[&str] = &["python_semantics"];

fn check_backend(backend: &str) {
    let outcomes = support::run_corpus(&support::corpus_dir("tests/conformance"), backend);
    assert!(outcomes.len() >= 11, "the corpus went missing");
    let mut problems = Vec::new();
    for o in outcomes {
        let listed = PASSING.contains(&o.name.as_str());
        match (o.verdict, listed) {
            (Ok(()), true) => eprintln!("pass  {}", o.name),
            (Err(why), true) => {
                problems.push(format!("{} should pass on {backend}: {why}", o.name))
            }
            (Ok(()), false) => problems.push(format!(
                "{} now passes on {backend}: add it to PASSING",
                o.name
            )),
            (Err(why), false) => eprintln!("known failure  {}: {why}", o.name),
        }
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
        eprintln!("skipping: no wgpu adapter");
        return;
    }
    check_backend("wgpu");
}
