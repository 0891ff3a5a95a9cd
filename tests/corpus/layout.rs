//! The corpora's layout, written once: which kinds of corpus there are, where each
//! kind's programs live (the project's own under `tests/corpus/KIND/`, the shared
//! conformance corpus's under `../shared/conformance/`, or `$TPU_SHARED_DIR`), and
//! what counts as a program (`NAME.py` beside a `NAME.expected`). Both build scripts
//! (`crates/tpu-cli/build.rs` for the native runner, `crates/tpu-wasm/build.rs` for
//! Chromium) generate their lists of programs from this file, and the coverage tests
//! hold those lists to every program found on disk, so a program dropped into any
//! corpus folder runs everywhere with nothing else edited. A new kind is one line in
//! `KINDS` and a folder.
//!
//! Included with `#[path]` (a build script can depend on no workspace crate), so it
//! uses only `std`.

use std::path::{Path, PathBuf};

/// One kind of corpus: a folder of the project's own and its counterpart in the
/// shared corpus.
pub struct Kind {
    /// The kind's name, which is also its folder under `tests/corpus/`.
    pub name: &'static str,
    /// Its folder inside the shared corpus (`""`: the shared corpus's top level).
    pub shared: &'static str,
    /// The ranks a program runs as when its first line names none (`# nproc: N`);
    /// `None` runs it as one process.
    pub default_nproc: Option<usize>,
}

/// Every kind of corpus. Programs of one kind run the same way everywhere.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "single",
        shared: "",
        default_nproc: None,
    },
    Kind {
        name: "cnn",
        shared: "cnn",
        default_nproc: None,
    },
    Kind {
        name: "compile",
        shared: "compile",
        default_nproc: None,
    },
    // The shared distributed programs were recorded with four ranks and do not
    // say so; the project's own each name theirs on the first line.
    Kind {
        name: "distributed",
        shared: "distributed",
        default_nproc: Some(4),
    },
    Kind {
        name: "pallas",
        shared: "pallas",
        default_nproc: None,
    },
    // Plain Python using CPython's standard library, recorded with CPython
    // (`tools/record/cpython.py`); the shared corpus has none.
    Kind {
        name: "stdlib",
        shared: "stdlib",
        default_nproc: None,
    },
];

/// The environment variable that points at the shared corpus elsewhere than
/// `<repository>/../shared/conformance`.
pub const SHARED_DIR_VAR: &str = "TPU_SHARED_DIR";

/// The folder of the project's own corpora.
pub fn own_root(repo: &Path) -> PathBuf {
    repo.join("tests/corpus")
}

/// The shared conformance corpus: `$TPU_SHARED_DIR`, else `../shared/conformance`
/// beside the repository. It may be absent (a clone without `shared/`): its tests
/// then report themselves ignored.
pub fn shared_root(repo: &Path) -> PathBuf {
    match std::env::var_os(SHARED_DIR_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => repo.join("../shared/conformance"),
    }
}

/// One program of a corpus.
pub struct Program {
    pub kind: &'static Kind,
    /// Whether it is the shared corpus's rather than the project's own.
    pub shared: bool,
    pub name: String,
    /// `NAME.py`; `NAME.expected` lies beside it.
    pub path: PathBuf,
    /// Why, where a `NAME.differs` file says the program does not print what
    /// the recording printed on RustPython (which `tpu run` uses): it must
    /// then still differ there natively, so the file is removed when it stops
    /// being true.
    pub differs: Option<String>,
    /// Why, where a `NAME.differs_in_browser` file says the program prints
    /// what was recorded natively but not in the browser (RustPython on
    /// wasm32 lacks something): there it must still differ.
    pub differs_in_browser: Option<String>,
}

/// The programs directly in `dir` (`NAME.py` with a `NAME.expected`), sorted by
/// name; none where `dir` does not exist.
pub fn programs_in(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "py")
                        && p.with_extension("expected").is_file()
                })
                .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// Every program of every kind: the project's own, then (with `shared`) the
/// shared corpus's.
pub fn all_programs(repo: &Path, shared: bool) -> Vec<Program> {
    let mut programs = Vec::new();
    for kind in KINDS {
        let mut folders = vec![(false, own_root(repo).join(kind.name))];
        if shared {
            folders.push((true, shared_root(repo).join(kind.shared)));
        }
        for (is_shared, dir) in folders {
            for (name, path) in programs_in(&dir) {
                let note = |extension: &str| {
                    std::fs::read_to_string(path.with_extension(extension))
                        .ok()
                        .map(|why| why.trim().to_string())
                };
                let differs = note("differs");
                let differs_in_browser = note("differs_in_browser");
                programs.push(Program {
                    kind,
                    shared: is_shared,
                    name,
                    path,
                    differs,
                    differs_in_browser,
                });
            }
        }
    }
    programs
}

/// Every `NAME.py` with a `NAME.expected` anywhere under `dir`, at any depth,
/// sorted: what the coverage tests hold the runners' lists to, so that a folder
/// missing from `KINDS` is found.
pub fn every_program_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "py")
                && path.with_extension("expected").is_file()
            {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
