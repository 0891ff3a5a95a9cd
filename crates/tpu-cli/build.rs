//! Generates the native corpus runner's tests (`$OUT_DIR/corpus_tests.rs`, included
//! by `tests/corpus.rs`): one test per corpus program and backend, found in every
//! corpus folder that `tests/corpus/layout.rs` names, own and shared, so a new
//! `NAME.py` with its `NAME.expected` runs with nothing else edited.
//!
//! It also decides, once and at build time (libtest cannot ignore a test at run
//! time), which tests report themselves ignored and why:
//! - the shared corpus's, where `../shared/conformance` (or `$TPU_SHARED_DIR`) is
//!   absent (`cfg(tpu_shared)` is set where it is there);
//! - those that need a wgpu adapter, unless `TPU_REQUIRE_GPU` is set (the test
//!   command sets it, with lavapipe), which sets `cfg(tpu_gpu)`;
//! - the real-XLA check, unless `TPU_XLA_PYTHON` names its Python, which sets
//!   `cfg(tpu_xla)`.
//!
//! An ignored test that is run anyway (`--include-ignored`) fails where its
//! requirement is missing, so no test passes without having checked.

#[path = "../../tests/corpus/layout.rs"]
#[allow(dead_code)]
mod layout;

use std::fmt::Write;
use std::path::Path;

/// Why a wgpu test is ignored.
const NO_GPU: &str = "needs a wgpu adapter: set TPU_REQUIRE_GPU=1 when building the tests (the test command does), or run with --include-ignored";

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=../../tests/corpus");
    println!("cargo::rerun-if-env-changed={}", layout::SHARED_DIR_VAR);
    println!("cargo::rerun-if-env-changed=TPU_REQUIRE_GPU");
    println!("cargo::rerun-if-env-changed=TPU_XLA_PYTHON");
    println!("cargo::rustc-check-cfg=cfg(tpu_gpu, tpu_xla, tpu_shared)");
    let gpu = std::env::var_os("TPU_REQUIRE_GPU").is_some_and(|v| !v.is_empty());
    if gpu {
        println!("cargo::rustc-cfg=tpu_gpu");
    }
    if std::env::var_os("TPU_XLA_PYTHON").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=tpu_xla");
    }
    let shared = layout::shared_root(&repo);
    let has_shared = shared.is_dir();
    if has_shared {
        println!("cargo::rerun-if-changed={}", shared.display());
        println!("cargo::rustc-cfg=tpu_shared");
    }

    // In a module of their own: the test binary has modules named after the
    // kinds (compile, distributed, pallas) for what the corpora exercise.
    let mut out = String::from("mod programs {\n");
    for kind in layout::KINDS {
        for is_shared in [false, true] {
            let module = if is_shared {
                format!("shared_{}", kind.name)
            } else {
                kind.name.to_string()
            };
            let _ = writeln!(out, "mod {module} {{");
            if is_shared && !has_shared {
                let _ = writeln!(
                    out,
                    "    #[test]\n    #[ignore = \"the shared corpus is absent: {} (set {} to its folder)\"]\n    fn the_shared_corpus() {{\n        panic!(\"the shared corpus is absent\");\n    }}",
                    shared.display(),
                    layout::SHARED_DIR_VAR
                );
            }
            let programs = layout::all_programs(&repo, has_shared);
            for (index, p) in programs
                .iter()
                .filter(|p| p.kind.name == kind.name && p.shared == is_shared)
                .enumerate()
            {
                // Plain Python (the stdlib kind) makes no tensors: a backend
                // has nothing to do with it, so it runs on the reference only.
                let backends: &[&str] = if kind.name == "stdlib" {
                    &["cpu"]
                } else {
                    &["cpu", "wgpu"]
                };
                for &backend in backends {
                    let ignore = if backend == "wgpu" && !gpu {
                        format!("\n    #[ignore = {NO_GPU:?}]")
                    } else {
                        String::new()
                    };
                    let modes = modes_for(backend, is_shared, kind.name, index);
                    let _ = writeln!(
                        out,
                        "    #[test]{ignore}\n    fn {}_on_{backend}() {{\n        super::super::support::check_program({:?}, {backend:?}, {modes}, {:?}, {:?});\n    }}",
                        identifier(&p.name),
                        p.path.display().to_string(),
                        p.kind.default_nproc,
                        p.differs,
                    );
                }
            }
            out.push_str("}\n");
        }
    }
    out.push_str("}\n");
    // What the runner runs, for the coverage test.
    out.push_str("/// Every program the native runner has a test for.\n#[allow(dead_code)]\npub const RUNS: &[&str] = &[\n");
    for p in layout::all_programs(&repo, has_shared) {
        let _ = writeln!(out, "    {:?},", p.path.display().to_string());
    }
    out.push_str("];\n");
    let dest =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("corpus_tests.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The eager modes the `index`-th program of a kind runs in on `backend`, as
/// Rust source. On the reference, all three: the modes must agree with PyTorch
/// and with each other, program by program. Plain Python (the stdlib kind)
/// makes no tensors, so one mode says all there is. On wgpu, the shared corpus
/// runs in all three; the project's own programs in one each, taking Debug,
/// Strict and Fused in turn (its compile and distributed programs in Fused,
/// where their kernels are), so every mode meets WebGPU's kernels across each
/// kind at a third of the runs: a wgpu run costs an adapter (about 1 s under
/// lavapipe), and every kernel is checked against the reference op by op
/// (`tpu-wgpu`'s differential and fusion tests) besides. The browser rotates
/// through all six pairings in the same way (`crates/tpu-wasm/tests/corpus.rs`).
fn modes_for(backend: &str, shared: bool, kind: &str, index: usize) -> String {
    const ALL: &str = "&super::super::support::MODES";
    match (backend, shared, kind) {
        (_, _, "stdlib") => "&[\"strict\"]".into(),
        ("cpu", _, _) | ("wgpu", true, _) => ALL.into(),
        (_, false, "compile" | "distributed") => "&[\"fused\"]".into(),
        _ => {
            let mode = ["debug", "strict", "fused"][index % 3];
            format!("&[{mode:?}]")
        }
    }
}

/// A program's name as a Rust identifier.
fn identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic()) {
        id.insert(0, 'p');
    }
    id
}
