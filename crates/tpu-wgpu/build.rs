//! Decides, at build time, whether this crate's wgpu tests report themselves
//! ignored (libtest cannot ignore a test at run time): unless `TPU_REQUIRE_GPU`
//! is set, as the project's test command sets it (with lavapipe), a test that
//! needs an adapter is `#[ignore]`d with the reason instead of passing without
//! having run. `cfg(tpu_gpu)` is set where it is required.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=TPU_REQUIRE_GPU");
    println!("cargo::rustc-check-cfg=cfg(tpu_gpu)");
    if std::env::var_os("TPU_REQUIRE_GPU").is_some_and(|v| !v.is_empty()) {
        println!("cargo::rustc-cfg=tpu_gpu");
    }
}
