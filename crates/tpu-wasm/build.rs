//! Gives the wasm module a 16 MiB stack. The interpreter recurses on the stack and
//! its limits (`MAX_CALLS`, `MAX_DEPTH` in tpu-lang) are sized against this; the
//! default 1 MiB would trap on deep but legal programs. A link argument here, not
//! `rustflags` in .cargo/config.toml, because wasm-pack may set RUSTFLAGS, which
//! replaces config rustflags entirely.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg=-zstack-size=16777216");
    }
}
