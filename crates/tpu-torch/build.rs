//! Sets `cfg(tpu_real)` where `../shared/real` (the real programs written by
//! others, beside the shared conformance corpus) exists, so that
//! `tests/real_progress.rs` reports itself ignored, with the reason, where it
//! does not.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tpu_real)");
    println!("cargo::rerun-if-env-changed=TPU_SHARED_DIR");
    let real = match std::env::var_os("TPU_SHARED_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("../real"),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real"),
    };
    println!("cargo::rerun-if-changed={}", real.display());
    if real.is_dir() {
        println!("cargo::rustc-cfg=tpu_real");
    }
}
