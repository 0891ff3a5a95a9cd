//! The real programs of `../shared/real/` (other people's code: makemore,
//! minGPT, nanoGPT, pytorch/examples) through `tpu run`'s interpreter on the
//! reference backend, judged by the corpus rule against what PyTorch printed.
//! The programs that agree are listed in `AGREE` (the test fails when one
//! stops agreeing or one not listed starts to); every other program's first
//! error is printed, which is where it stops next. A program whose name ends
//! in `_N` runs as N ranks, as `torchrun --nproc-per-node N` ran it. Reports
//! itself ignored where `../shared/real` is absent (`build.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

include!("real/agree.rs");

fn real_dir() -> PathBuf {
    match std::env::var_os("TPU_SHARED_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("../real"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real"),
    }
}

/// The ranks a program runs as: N for a name ending in `_N`.
fn ranks_of(path: &Path) -> Option<usize> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    stem.rsplit('_').next()?.parse().ok()
}

fn run(path: &Path) -> Result<(), String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let expected =
        std::fs::read_to_string(path.with_extension("expected")).map_err(|e| e.to_string())?;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let ranks = ranks_of(path);
    let report = std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || {
            let options = tpu_python::Options {
                path: name,
                timeout: Some(Duration::from_secs(120)),
                ..tpu_python::Options::default()
            };
            let mode = tpu_runtime::EagerMode::Strict;
            let reference = || Box::new(tpu_runtime::ReferenceBackend::new());
            match ranks {
                Some(n) => {
                    let shared = tpu_runtime::SharedBackend::new(reference());
                    let mut runtimes: Vec<_> = (0..n)
                        .map(|_| tpu_runtime::Runtime::new(Box::new(shared.clone())))
                        .collect();
                    tpu_torch::run_ranks(&source, &mut runtimes, options, mode, (0..n).collect())
                }
                None => {
                    let mut runtime = tpu_runtime::Runtime::new(reference());
                    tpu_torch::run_report(&source, &mut runtime, options, mode).0
                }
            }
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the run panicked".to_string())?;
    if let Some(d) = report.diagnostics.first() {
        let line = d.span.as_ref().map(|s| s.line);
        return Err(format!("{}: {} (line {line:?})", d.kind, d.message));
    }
    tpu_runtime::conformance::agree(&expected, &report.stdout)
}

#[test]
#[cfg_attr(
    not(tpu_real),
    ignore = "the real programs (../shared/real) are absent: set TPU_SHARED_DIR to the shared conformance folder beside them"
)]
fn the_real_programs_that_agree_still_do_and_the_list_is_complete() {
    let dir = real_dir();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the real corpus is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py") && p.with_extension("expected").is_file()
        })
        .collect();
    programs.sort();
    let mut problems = Vec::new();
    let mut agree = 0;
    for (path, verdict) in programs.iter().zip(run_all(&programs)) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let listed = AGREE.contains(&name.as_str());
        match verdict {
            Ok(()) => {
                agree += 1;
                if !listed {
                    problems.push(format!("{name}: now agrees; add it to AGREE"));
                }
            }
            Err(why) => {
                let head: String = why.lines().take(3).collect::<Vec<_>>().join(" | ");
                eprintln!("{name}: {head}");
                if listed {
                    problems.push(format!("{name}: no longer agrees: {why}"));
                }
            }
        }
    }
    eprintln!("{agree} of {} real programs agree", programs.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each program's verdict, in order, run on as many threads as the machine
/// has cores (the programs are independent; one after another they took
/// about two minutes of a 2-core machine's test run with its second core
/// idle).
fn run_all(programs: &[PathBuf]) -> Vec<Result<(), String>> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let verdicts: Mutex<Vec<Option<Result<(), String>>>> =
        Mutex::new(programs.iter().map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(programs.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = programs.get(i) else { break };
                    let verdict = run(path);
                    verdicts.lock().expect("no worker panics holding it")[i] = Some(verdict);
                }
            });
        }
    });
    verdicts
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|v| v.expect("every program ran"))
        .collect()
}
