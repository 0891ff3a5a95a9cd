//! The standard-library corpus (`tests/corpus/stdlib/`, recorded with CPython
//! 3.13) through this crate's interpreter: every program must print exactly
//! what CPython printed and exit 0, except those with a `NAME.differs` file,
//! which must still differ (so the files stay true as RustPython or this crate
//! improve). They run twice: with the host's files, as `tpu run` runs them,
//! and with their files in memory, as the browser runs them. `tpu run` holds
//! the same programs to the same files in every eager mode
//! (`crates/tpu-cli/tests/corpus.rs`).

use std::path::{Path, PathBuf};

#[path = "../../../tests/corpus/layout.rs"]
#[allow(dead_code)] // Only part of it is needed here.
mod layout;

/// Why a program does not print CPython 3.13's output on RustPython 0.6.0,
/// where its `NAME.differs` file says so. "3.14" marks CPython 3.14's own new
/// wording or behaviour, which RustPython (whose `Lib/` is 3.14's) follows; the
/// rest are RustPython's.
fn differs(path: &Path) -> Option<String> {
    std::fs::read_to_string(path.with_extension("differs")).ok()
}

fn corpus() -> Vec<(String, PathBuf)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    layout::programs_in(&layout::own_root(&repo).join("stdlib"))
}

/// Runs one program as `python NAME.py` would: its own thread, its path as
/// `sys.argv[0]`.
fn run(path: &Path, files: tpu_python::Files) -> tpu_python::Outcome {
    let source = std::fs::read_to_string(path).expect("the program is readable");
    let path = path.canonicalize().expect("the program exists");
    let options = move || tpu_python::Options {
        path: path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned(),
        folder: path.parent().map(Path::to_path_buf),
        timeout: Some(std::time::Duration::from_secs(60)),
        files,
        ..tpu_python::Options::default()
    };
    std::thread::Builder::new()
        .stack_size(tpu_python::STACK_BYTES)
        .spawn(move || tpu_python::run(&source, options()))
        .expect("a thread starts")
        .join()
        .expect("the run does not panic")
}

/// The first line where `got` and `expected` differ, for the failure message.
fn first_difference(got: &str, expected: &str) -> String {
    let (mut g, mut e) = (got.lines(), expected.lines());
    for n in 1.. {
        match (g.next(), e.next()) {
            (None, None) => return "same lines, different line endings".into(),
            (a, b) if a == b => continue,
            (a, b) => return format!("line {n}: got {a:?}, CPython printed {b:?}"),
        }
    }
    unreachable!()
}

#[test]
fn the_standard_library_corpus_prints_what_cpython_printed() {
    check_corpus(tpu_python::Files::Host);
}

#[test]
fn so_it_does_with_its_files_in_memory() {
    check_corpus(tpu_python::Files::Memory);
}

fn check_corpus(files: tpu_python::Files) {
    let programs = corpus();
    assert!(programs.len() >= 90, "the stdlib corpus went missing");
    let results: Vec<(String, Result<(), String>)> = std::thread::scope(|scope| {
        let chunks: Vec<_> = programs.chunks(programs.len().div_ceil(4)).collect();
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|(name, path)| {
                            let expected = std::fs::read_to_string(path.with_extension("expected"))
                                .expect("NAME.expected is readable");
                            let outcome = run(path, files);
                            let verdict = if outcome.exit_code != 0 {
                                let why = outcome.error.map_or(String::new(), |f| {
                                    format!("{}: {} (line {:?})", f.kind, f.message, f.line)
                                });
                                Err(format!("exit status {}: {why}", outcome.exit_code))
                            } else if outcome.stdout != expected {
                                Err(first_difference(&outcome.stdout, &expected))
                            } else {
                                Ok(())
                            };
                            (name.clone(), verdict)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a runner thread does not panic"))
            .collect()
    });

    let mut problems = Vec::new();
    for ((name, verdict), (_, path)) in results.iter().zip(&programs) {
        match (verdict, differs(path)) {
            (Err(why), None) => problems.push(format!("{name}: {why}")),
            (Ok(()), Some(_)) => problems.push(format!(
                "{name}: now prints what CPython printed; delete {name}.differs"
            )),
            _ => {}
        }
    }
    let passed = results.iter().filter(|(_, v)| v.is_ok()).count();
    eprintln!(
        "{passed} of {} programs match CPython ({files:?} files)",
        results.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
