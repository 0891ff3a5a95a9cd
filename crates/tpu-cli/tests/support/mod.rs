//! Shared by the corpus tests: run a corpus program (`NAME.py` beside its
//! `NAME.expected`), or every one in a folder, through `tpu run` on one backend in
//! each eager mode, and judge it by the conformance rule.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How each program in a corpus came out on one backend.
pub struct Outcome {
    pub name: String,
    pub verdict: Result<(), String>,
}

pub fn corpus_dir(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative)
}

/// A file of the shared conformance corpus (`tests/corpus/layout.rs` says where
/// it is).
#[allow(dead_code)]
pub fn shared(relative: &str) -> PathBuf {
    crate::layout::shared_root(&corpus_dir("")).join(relative)
}

/// The eager modes every corpus runs in.
pub const MODES: [&str; 3] = ["debug", "strict", "fused"];

#[allow(dead_code)] // Each test binary uses one of the two.
pub fn run_corpus(dir: &Path, backend: &str, mode: &str) -> Vec<Outcome> {
    run_corpus_with(dir, backend, mode, None)
}

/// The ranks a distributed program runs with: its first line's `# nproc: N`,
/// else `default`.
pub fn nproc_of(source: &str, default: Option<usize>) -> Option<usize> {
    source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# nproc:"))
        .and_then(|n| n.trim().parse().ok())
        .or(default)
}

/// Runs the corpus program at `path` on `backend` in each of `modes`, as the
/// ranks its first line names (else `default_nproc`), and panics naming every
/// mode it disagreed with PyTorch in. A program known to differ on RustPython
/// (`differs`, from its `NAME.differs` file) must disagree in every mode, so
/// that one that starts to pass is noticed and its file removed.
#[allow(dead_code)] // Used by the generated corpus tests.
pub fn check_program(
    path: &str,
    backend: &str,
    modes: &[&str],
    default_nproc: Option<usize>,
    differs: Option<&str>,
) {
    let path = Path::new(path);
    let mut problems = Vec::new();
    for &mode in modes {
        let verdict = run_program(path, backend, mode, default_nproc);
        match (verdict, differs) {
            (Err(why), None) => problems.push(format!("in {mode}: {why}")),
            (Ok(()), Some(what)) => problems.push(format!(
                "in {mode}: now matches; delete its .differs file ({what})"
            )),
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} on {backend}:\n{}",
        path.display(),
        problems.join("\n")
    );
}

/// Runs one program through `tpu run` and judges its output.
fn run_program(path: &Path, backend: &str, mode: &str, nproc: Option<usize>) -> Result<(), String> {
    let expected = std::fs::read_to_string(path.with_extension("expected"))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let source = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut command = Command::new(env!("CARGO_BIN_EXE_tpu"));
    command.args(["run", "--backend", backend, "--mode", mode]);
    if let Some(n) = nproc_of(&source, nproc) {
        command.args(["--nproc-per-node", &n.to_string()]);
    }
    let out = command.arg(path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() {
        tpu_runtime::conformance::agree(&expected, &stdout)
    } else {
        let stderr = String::from_utf8_lossy(&out.stderr);
        Err(stderr.lines().last().unwrap_or("").to_string())
    }
}

/// `run_corpus`, with every program run as `nproc` ranks (`--nproc-per-node`,
/// or the program's own `# nproc: N` line).
pub fn run_corpus_with(
    dir: &Path,
    backend: &str,
    mode: &str,
    nproc: Option<usize>,
) -> Vec<Outcome> {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the corpus exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py") && p.with_extension("expected").exists()
        })
        .collect();
    programs.sort();
    programs
        .into_iter()
        .map(|path| Outcome {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            verdict: run_program(&path, backend, mode, nproc),
        })
        .collect()
}

/// Runs `source` as a program with `tpu run --report` on `backend` in
/// `mode`; returns the Report (as JSON), what the program wrote to stderr,
/// and whether it succeeded.
#[allow(dead_code)] // Used by the modules of the conformance test binary.
pub fn run_report(source: &str, backend: &str, mode: &str) -> (serde_json::Value, String, bool) {
    let dir = std::env::temp_dir().join(format!(
        "tpu-report-test-{}-{}-{}",
        std::process::id(),
        source.len(),
        backend
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let program = dir.join(format!("p_{mode}.py"));
    let report = dir.join(format!("p_{mode}.json"));
    std::fs::write(&program, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tpu"))
        .args(["run", "--backend", backend, "--mode", mode, "--report"])
        .arg(&report)
        .arg(&program)
        .output()
        .unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}
