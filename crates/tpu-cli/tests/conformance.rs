//! The conformance corpus (`tests/conformance/`: PyTorch programs and what PyTorch
//! 2.15 printed) through `tpu run`, on each backend, judged by the corpus's rule.
//!
//! `PASSING` lists the programs that must agree. The others are expected to fail
//! until the language issue is finished; a program that starts passing without
//! being listed fails the test too, so the list never goes stale.

use std::path::PathBuf;
use std::process::Command;

const PASSING: &[&str] = &["python_semantics"];

fn corpus() -> Vec<(String, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut programs: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .expect("the corpus exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    programs.sort();
    assert!(programs.len() >= 11, "the corpus went missing");
    programs
}

fn check_backend(backend: &str) {
    let mut problems = Vec::new();
    for (name, path) in corpus() {
        let expected = std::fs::read_to_string(path.with_extension("expected")).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
            .args(["run", "--backend", backend, path.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let verdict = if out.status.success() {
            tpu_lang::conformance::agree(&expected, &stdout)
        } else {
            Err(String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
                .to_string())
        };
        let listed = PASSING.contains(&name.as_str());
        match (verdict, listed) {
            (Ok(()), true) => eprintln!("pass  {name}"),
            (Err(why), true) => problems.push(format!("{name} should pass on {backend}: {why}")),
            (Ok(()), false) => {
                problems.push(format!("{name} now passes on {backend}: add it to PASSING"))
            }
            (Err(why), false) => eprintln!("known failure  {name}: {why}"),
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
    if std::env::var_os("TPU_REQUIRE_GPU").is_none()
        && pollster::block_on(tpu_wgpu::WgpuBackend::new()).is_err()
    {
        eprintln!("skipping: no wgpu adapter");
        return;
    }
    check_backend("wgpu");
}
