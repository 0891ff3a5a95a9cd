//! Gives the wasm module a 16 MiB stack. The interpreter recurses on the stack and
//! its limits (`MAX_CALLS`, `MAX_DEPTH` in tpu-lang) are sized against this; the
//! default 1 MiB would trap on deep but legal programs. A link argument here, not
//! `rustflags` in .cargo/config.toml, because wasm-pack may set RUSTFLAGS, which
//! replaces config rustflags entirely.
//!
//! Also lists the project's corpus (`tests/programs/`, every program with an
//! `.expected` file) for the browser test that runs it in Chromium
//! (`tests/programs.rs`), as `$OUT_DIR/programs.rs`: a new program is picked up
//! without editing a list.

use std::fmt::Write;
use std::path::Path;

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=16777216");
    }
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    println!("cargo:rerun-if-changed={}", programs.display());
    let mut names: Vec<String> = std::fs::read_dir(&programs)
        .map(|dir| {
            dir.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    let stem = name.strip_suffix(".expected")?.to_string();
                    programs.join(format!("{stem}.py")).exists().then_some(stem)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut list = String::from("&[\n");
    for name in &names {
        let path = programs.join(name);
        let _ = writeln!(
            list,
            "    ({name:?}, include_str!({py:?}), include_str!({expected:?})),",
            py = format!("{}.py", path.display()),
            expected = format!("{}.expected", path.display()),
        );
    }
    list.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("programs.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");
}
