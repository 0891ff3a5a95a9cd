//! Gives the wasm module a 16 MiB stack. The interpreter recurses on the stack
//! and its limits are sized against this; the default 1 MiB would trap on deep
//! but legal programs. A link argument here, not
//! `rustflags` in .cargo/config.toml, because wasm-pack may set RUSTFLAGS, which
//! replaces config rustflags entirely.
//!
//! Also lists every corpus program, own and shared, in every folder that
//! `tests/corpus/layout.rs` names, for the browser test that runs them in Chromium
//! (`tests/corpus.rs`), as `$OUT_DIR/corpus.rs`: a new program is picked up without
//! editing a list. Where the shared corpus (`../shared/conformance`, or
//! `$TPU_SHARED_DIR`) is absent, `cfg(tpu_shared)` is unset and the tests of the
//! shared programs report themselves ignored; so with the real programs beside
//! it (`../shared/real`, `cfg(tpu_real)`, listed in `$OUT_DIR/real.rs`).

#[path = "../../tests/corpus/layout.rs"]
#[allow(dead_code)]
mod layout;

use std::fmt::Write;
use std::path::Path;

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=16777216");
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=../../tests/corpus");
    println!("cargo::rerun-if-env-changed={}", layout::SHARED_DIR_VAR);
    println!("cargo::rustc-check-cfg=cfg(tpu_shared)");
    println!("cargo::rustc-check-cfg=cfg(tpu_real)");
    // The browser's speed figures (tests/browser/speed.rs) are measurements
    // for docs/performance.md, not checks: taken with TPU_MEASURE=1.
    println!("cargo::rerun-if-env-changed=TPU_MEASURE");
    println!("cargo::rustc-check-cfg=cfg(tpu_measure)");
    if std::env::var_os("TPU_MEASURE").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=tpu_measure");
    }
    let shared = layout::shared_root(&repo);
    let has_shared = shared.is_dir();
    if has_shared {
        println!("cargo::rerun-if-changed={}", shared.display());
        println!("cargo::rustc-cfg=tpu_shared");
        println!("cargo::rustc-env=TPU_SHARED_CORPUS={}", shared.display());
    }
    let mut list = String::from("&[\n");
    for p in layout::all_programs(&repo, has_shared) {
        let source = std::fs::read_to_string(&p.path).expect("a corpus program reads");
        // The ranks: the program's own first line `# nproc: N`, else its kind's.
        let nproc = source
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# nproc:"))
            .and_then(|n| n.trim().parse().ok())
            .or(p.kind.default_nproc);
        let path = p.path.display().to_string();
        let _ = writeln!(
            list,
            "    Program {{ kind: {:?}, shared: {}, name: {:?}, path: {path:?}, source: include_str!({path:?}), expected: include_str!({:?}), nproc: {nproc:?}, differs: {:?} }},",
            p.kind.name,
            p.shared,
            p.name,
            p.path.with_extension("expected").display().to_string(),
            p.differs.as_ref().or(p.differs_in_browser.as_ref()),
        );
    }
    list.push(']');
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let out = Path::new(&out_dir).join("corpus.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");

    // The real programs beside the shared corpus (`../shared/real`), for
    // `tests/corpus.rs`'s check of where each stops in the browser.
    let real = shared.join("../real");
    let mut programs = String::from("&[\n");
    if real.is_dir() {
        println!("cargo::rerun-if-changed={}", real.display());
        println!("cargo::rustc-cfg=tpu_real");
        for (name, path) in layout::programs_in(&real) {
            let _ = writeln!(
                programs,
                "    Real {{ name: {name:?}, source: include_str!({:?}), expected: include_str!({:?}) }},",
                path.display().to_string(),
                path.with_extension("expected").display().to_string(),
            );
        }
    }
    programs.push(']');
    std::fs::write(Path::new(&out_dir).join("real.rs"), programs).expect("OUT_DIR is writable");
}
